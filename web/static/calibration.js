/* Calibration: clicks on the camera frame fill in the four corners, in frame pixels. */
(function () {
  "use strict";
  var image = document.getElementById("frame");
  var layer = document.getElementById("corner-layer");
  var form = document.getElementById("corners");
  if (!form) { return; }
  /* The corners' names as the page's table writes them, in the page's language. */
  var names = Array.prototype.map.call(
    form.querySelectorAll("table.corners tbody tr td:first-child"),
    function (cell) { return cell.textContent; });
  if (names.length !== 4) { names = ["top-left", "top-right", "bottom-right", "bottom-left"]; }
  var SVG = "http://www.w3.org/2000/svg";

  function field(axis, index) { return form.elements[axis + (index + 1)]; }

  function corners() {
    var points = [];
    for (var i = 0; i < 4; i++) {
      var x = parseFloat(field("x", i).value), y = parseFloat(field("y", i).value);
      points.push(isFinite(x) && isFinite(y) ? [x, y] : null);
    }
    return points;
  }

  function nextEmpty() {
    var points = corners();
    for (var i = 0; i < 4; i++) { if (!points[i]) { return i; } }
    return -1;
  }

  function draw() {
    if (!layer || !image || !image.naturalWidth) { return; }
    var width = image.naturalWidth, height = image.naturalHeight;
    layer.setAttribute("viewBox", "0 0 " + width + " " + height);
    while (layer.firstChild) { layer.removeChild(layer.firstChild); }
    var points = corners();
    var size = Math.max(width, height) / 120;
    if (points.every(function (p) { return p; })) {
      var outline = document.createElementNS(SVG, "polygon");
      outline.setAttribute("points", points.map(function (p) { return p.join(","); }).join(" "));
      outline.setAttribute("class", "corner-outline");
      outline.setAttribute("stroke-width", size / 2);
      layer.appendChild(outline);
    }
    points.forEach(function (p, i) {
      if (!p) { return; }
      var dot = document.createElementNS(SVG, "circle");
      dot.setAttribute("cx", p[0]); dot.setAttribute("cy", p[1]); dot.setAttribute("r", size);
      dot.setAttribute("class", "corner-dot");
      layer.appendChild(dot);
      var label = document.createElementNS(SVG, "text");
      label.setAttribute("x", p[0] + size * 1.5); label.setAttribute("y", p[1] - size * 1.5);
      label.setAttribute("font-size", size * 4);
      label.setAttribute("class", "corner-label");
      label.textContent = names[i];
      layer.appendChild(label);
    });
  }

  if (image) {
    image.addEventListener("click", function (event) {
      var box = image.getBoundingClientRect();
      var index = nextEmpty();
      if (index < 0) { return; }
      var x = (event.clientX - box.left) * image.naturalWidth / box.width;
      var y = (event.clientY - box.top) * image.naturalHeight / box.height;
      field("x", index).value = x.toFixed(1);
      field("y", index).value = y.toFixed(1);
      draw();
    });
    if (image.complete) { draw(); } else { image.addEventListener("load", draw); }
  }
  form.addEventListener("input", draw);
  document.getElementById("corners-reset").addEventListener("click", function () {
    for (var i = 0; i < 4; i++) { field("x", i).value = ""; field("y", i).value = ""; }
    draw();
  });
})();
