"""Builds a :class:`synth.scene.Scene` in Blender (``bpy``) and renders it with Cycles on the CPU.

Nothing random happens here: every choice comes from the scene description, so labels never depend
on this module. The render is linear (scene-referred) light; :mod:`synth.post` turns it into a
camera's JPEG.
"""

from __future__ import annotations

import math
import os
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from synth.scene import (
    CUBE_VALUES,
    DIE_FACES,
    Clutter,
    Scene,
    camera_matrix,
    field_corners_world,
    outer_extent,
    point_base,
    point_column,
    tray_x,
)

Rgb = tuple[float, float, float]


def load_bpy() -> Any:
    """Import Blender's module, hiding its start-up chatter on the terminal."""
    import bpy

    return bpy


# --- materials ---------------------------------------------------------------------------------


def _principled(bpy: Any, name: str) -> tuple[Any, Any, Any]:
    material = bpy.data.materials.new(name)
    material.use_nodes = True
    nodes = material.node_tree.nodes
    bsdf = nodes.get("Principled BSDF")
    return material, material.node_tree, bsdf


def _scaled(colour: Rgb, k: float) -> tuple[float, float, float, float]:
    return (min(1.0, colour[0] * k), min(1.0, colour[1] * k), min(1.0, colour[2] * k), 1.0)


def _ramp(tree: Any, fac_socket: Any, dark: Rgb, light: Rgb, lo: float, hi: float) -> Any:
    ramp = tree.nodes.new("ShaderNodeValToRGB")
    ramp.color_ramp.elements[0].position = lo
    ramp.color_ramp.elements[0].color = (*dark, 1.0)
    ramp.color_ramp.elements[1].position = hi
    ramp.color_ramp.elements[1].color = (*light, 1.0)
    tree.links.new(fac_socket, ramp.inputs["Fac"])
    return ramp.outputs["Color"]


def _bump(tree: Any, bsdf: Any, height_socket: Any, strength: float, distance: float) -> None:
    bump = tree.nodes.new("ShaderNodeBump")
    bump.inputs["Strength"].default_value = strength
    bump.inputs["Distance"].default_value = distance
    tree.links.new(height_socket, bump.inputs["Height"])
    tree.links.new(bump.outputs["Normal"], bsdf.inputs["Normal"])


def _coordinates(tree: Any, scale: tuple[float, float, float] = (1.0, 1.0, 1.0)) -> Any:
    coords = tree.nodes.new("ShaderNodeTexCoord")
    mapping = tree.nodes.new("ShaderNodeMapping")
    mapping.inputs["Scale"].default_value = scale
    tree.links.new(coords.outputs["Object"], mapping.inputs["Vector"])
    return mapping.outputs["Vector"]


def material(bpy: Any, name: str, kind: str, colour: Rgb, roughness: float | None = None) -> Any:
    """A procedural material of ``kind``: felt, leather, cork, lacquer, wood, cloth, stone, plastic,
    marble, glass, skin, metal, paper, paint."""
    mat, tree, bsdf = _principled(bpy, name)
    base = bsdf.inputs["Base Color"]
    bsdf.inputs["Base Color"].default_value = (*colour, 1.0)
    if kind in ("felt", "cloth"):
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 900.0 if kind == "felt" else 400.0
        noise.inputs["Detail"].default_value = 6.0
        tree.links.new(_coordinates(tree), noise.inputs["Vector"])
        tree.links.new(
            _ramp(
                tree,
                noise.outputs["Fac"],
                _scaled(colour, 0.75)[:3],
                _scaled(colour, 1.2)[:3],
                0.3,
                0.7,
            ),
            base,
        )
        _bump(tree, bsdf, noise.outputs["Fac"], 0.25, 0.0005)
        bsdf.inputs["Roughness"].default_value = 0.95
        bsdf.inputs["Sheen Weight"].default_value = 0.6
        bsdf.inputs["Sheen Roughness"].default_value = 0.4
    elif kind == "leather":
        cells = tree.nodes.new("ShaderNodeTexVoronoi")
        cells.inputs["Scale"].default_value = 500.0
        tree.links.new(_coordinates(tree), cells.inputs["Vector"])
        tree.links.new(
            _ramp(
                tree,
                cells.outputs["Distance"],
                _scaled(colour, 0.8)[:3],
                _scaled(colour, 1.1)[:3],
                0.0,
                0.8,
            ),
            base,
        )
        _bump(tree, bsdf, cells.outputs["Distance"], 0.35, 0.0004)
        bsdf.inputs["Roughness"].default_value = 0.45 if roughness is None else roughness
        bsdf.inputs["Coat Weight"].default_value = 0.25
    elif kind == "cork":
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 350.0
        noise.inputs["Detail"].default_value = 10.0
        tree.links.new(_coordinates(tree), noise.inputs["Vector"])
        tree.links.new(
            _ramp(
                tree,
                noise.outputs["Fac"],
                _scaled(colour, 0.55)[:3],
                _scaled(colour, 1.35)[:3],
                0.35,
                0.65,
            ),
            base,
        )
        _bump(tree, bsdf, noise.outputs["Fac"], 0.5, 0.0008)
        bsdf.inputs["Roughness"].default_value = 0.85
    elif kind in ("lacquer", "paint"):
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 150.0
        tree.links.new(_coordinates(tree), noise.inputs["Vector"])
        _bump(tree, bsdf, noise.outputs["Fac"], 0.02, 0.0002)
        bsdf.inputs["Roughness"].default_value = 0.2 if roughness is None else roughness
        bsdf.inputs["Coat Weight"].default_value = 1.0 if kind == "lacquer" else 0.2
        bsdf.inputs["Coat Roughness"].default_value = 0.04
    elif kind == "wood":
        # Grain: noise stretched along the board's length, rings from a gently distorted wave.
        grain = tree.nodes.new("ShaderNodeTexNoise")
        grain.inputs["Scale"].default_value = 3.0
        grain.inputs["Detail"].default_value = 10.0
        grain.inputs["Roughness"].default_value = 0.6
        tree.links.new(_coordinates(tree, (2.0, 90.0, 90.0)), grain.inputs["Vector"])
        rings = tree.nodes.new("ShaderNodeTexWave")
        rings.bands_direction = "Y"
        rings.inputs["Scale"].default_value = 3.0
        rings.inputs["Distortion"].default_value = 3.0
        rings.inputs["Detail"].default_value = 2.0
        tree.links.new(_coordinates(tree, (1.0, 4.0, 4.0)), rings.inputs["Vector"])
        mix = tree.nodes.new("ShaderNodeMath")
        mix.operation = "MULTIPLY_ADD"
        mix.inputs[1].default_value = 0.35
        tree.links.new(rings.outputs["Fac"], mix.inputs[0])
        tree.links.new(grain.outputs["Fac"], mix.inputs[2])
        tree.links.new(
            _ramp(
                tree,
                mix.outputs["Value"],
                _scaled(colour, 0.65)[:3],
                _scaled(colour, 1.2)[:3],
                0.45,
                0.85,
            ),
            base,
        )
        _bump(tree, bsdf, grain.outputs["Fac"], 0.04, 0.0003)
        bsdf.inputs["Roughness"].default_value = 0.4 if roughness is None else roughness
        bsdf.inputs["Coat Weight"].default_value = 0.35
        bsdf.inputs["Coat Roughness"].default_value = 0.12
    elif kind == "stone":
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 20.0
        noise.inputs["Detail"].default_value = 12.0
        tree.links.new(_coordinates(tree), noise.inputs["Vector"])
        tree.links.new(
            _ramp(
                tree,
                noise.outputs["Fac"],
                _scaled(colour, 0.7)[:3],
                _scaled(colour, 1.3)[:3],
                0.3,
                0.7,
            ),
            base,
        )
        bsdf.inputs["Roughness"].default_value = 0.35
    elif kind in ("plastic", "marble"):
        bsdf.inputs["Roughness"].default_value = 0.25 if roughness is None else roughness
        bsdf.inputs["Coat Weight"].default_value = 0.5
        bsdf.inputs["Coat Roughness"].default_value = 0.05
        if kind == "marble":
            wave = tree.nodes.new("ShaderNodeTexWave")
            wave.inputs["Scale"].default_value = 30.0
            wave.inputs["Distortion"].default_value = 12.0
            wave.inputs["Detail"].default_value = 6.0
            tree.links.new(_coordinates(tree), wave.inputs["Vector"])
            light = _scaled(colour, 1.6 if sum(colour) < 1.5 else 0.8)[:3]
            tree.links.new(_ramp(tree, wave.outputs["Fac"], colour, light, 0.55, 1.0), base)
    elif kind == "glass":
        bsdf.inputs["Roughness"].default_value = 0.05
        bsdf.inputs["Transmission Weight"].default_value = 0.85
        bsdf.inputs["IOR"].default_value = 1.5
    elif kind == "skin":
        bsdf.inputs["Roughness"].default_value = 0.5
        bsdf.inputs["Subsurface Weight"].default_value = 0.3
        bsdf.inputs["Subsurface Scale"].default_value = 0.004
        noise = tree.nodes.new("ShaderNodeTexNoise")
        noise.inputs["Scale"].default_value = 200.0
        tree.links.new(_coordinates(tree), noise.inputs["Vector"])
        _bump(tree, bsdf, noise.outputs["Fac"], 0.1, 0.0003)
    elif kind == "metal":
        bsdf.inputs["Metallic"].default_value = 1.0
        bsdf.inputs["Roughness"].default_value = 0.25 if roughness is None else roughness
    elif kind == "paper":
        bsdf.inputs["Roughness"].default_value = 0.9
        wave = tree.nodes.new("ShaderNodeTexWave")
        wave.wave_profile = "SAW"
        wave.inputs["Scale"].default_value = 60.0
        tree.links.new(_coordinates(tree), wave.inputs["Vector"])
        tree.links.new(_ramp(tree, wave.outputs["Fac"], (0.1, 0.1, 0.3), colour, 0.0, 0.06), base)
    else:
        bsdf.inputs["Roughness"].default_value = 0.5 if roughness is None else roughness
    return mat


# --- geometry helpers -------------------------------------------------------------------------


def _link(bpy: Any, obj: Any) -> Any:
    bpy.context.scene.collection.objects.link(obj)
    return obj


def _mesh_object(bpy: Any, name: str, vertices: list[Any], faces: list[Any], mat: Any) -> Any:
    mesh = bpy.data.meshes.new(name)
    mesh.from_pydata(vertices, [], faces)
    mesh.update()
    mesh.materials.append(mat)
    return _link(bpy, bpy.data.objects.new(name, mesh))


def box(
    bpy: Any,
    name: str,
    low: tuple[float, float, float],
    high: tuple[float, float, float],
    mat: Any,
    bevel: float = 0.0,
) -> Any:
    """An axis-aligned box from ``low`` to ``high`` corners, optionally with rounded edges."""
    x0, y0, z0 = low
    x1, y1, z1 = high
    vertices = [(x, y, z) for z in (z0, z1) for y in (y0, y1) for x in (x0, x1)]
    faces = [(0, 2, 3, 1), (4, 5, 7, 6), (0, 1, 5, 4), (2, 6, 7, 3), (0, 4, 6, 2), (1, 3, 7, 5)]
    obj = _mesh_object(bpy, name, vertices, faces, mat)
    if bevel > 0:
        modifier = obj.modifiers.new("bevel", "BEVEL")
        modifier.width = min(bevel, (x1 - x0) / 2.2, (y1 - y0) / 2.2, (z1 - z0) / 2.2)
        modifier.segments = 3
    return obj


def plane(
    bpy: Any, name: str, x0: float, x1: float, y0: float, y1: float, z: float, mat: Any
) -> Any:
    return _mesh_object(
        bpy, name, [(x0, y0, z), (x1, y0, z), (x1, y1, z), (x0, y1, z)], [(0, 1, 2, 3)], mat
    )


def disc_template(bpy: Any, name: str, radius: float, height: float, bevel: float, mat: Any) -> Any:
    """A bevelled cylinder mesh centred on its origin (a checker, a can), modifiers applied."""
    bpy.ops.mesh.primitive_cylinder_add(vertices=64, radius=radius, depth=height)
    obj = bpy.context.active_object
    obj.name = name
    for polygon in obj.data.polygons:
        polygon.use_smooth = abs(polygon.normal.z) < 0.5
    if bevel > 0:
        modifier = obj.modifiers.new("bevel", "BEVEL")
        modifier.width = min(bevel, height / 2.2)
        modifier.segments = 3
        modifier.harden_normals = True
        bpy.ops.object.modifier_apply(modifier="bevel")
    obj.data.materials.append(mat)
    return obj


def _matrix(bpy: Any, rows: Any) -> Any:
    import mathutils

    return mathutils.Matrix([list(row) for row in rows])


def _rotation(axis: str, angle: float) -> NDArray[np.float64]:
    """The 3x3 rotation by ``angle`` radians about the world axis ``axis`` (X, Y or Z)."""
    c, s = math.cos(angle), math.sin(angle)
    if axis == "X":
        return np.array([[1.0, 0.0, 0.0], [0.0, c, -s], [0.0, s, c]])
    if axis == "Y":
        return np.array([[c, 0.0, s], [0.0, 1.0, 0.0], [-s, 0.0, c]])
    return np.array([[c, -s, 0.0], [s, c, 0.0], [0.0, 0.0, 1.0]])


def _empty(bpy: Any, name: str, rows: Any) -> Any:
    obj = _link(bpy, bpy.data.objects.new(name, None))
    obj.matrix_world = _matrix(bpy, rows)
    return obj


def _aim(
    obj: Any, location: tuple[float, float, float], target: tuple[float, float, float]
) -> None:
    import mathutils

    obj.location = location
    direction = mathutils.Vector(target) - mathutils.Vector(location)
    obj.rotation_mode = "QUATERNION"
    obj.rotation_quaternion = direction.to_track_quat("-Z", "Y")


# --- the scene, piece by piece ----------------------------------------------------------------


def _board(bpy: Any, scene: Scene) -> None:
    b = scene.board
    x0, x1, y0, y1 = outer_extent(b)
    fw, fh = b.field_w / 2, b.field_h / 2
    frame_mat = material(bpy, "frame", b.frame_surface, b.frame_colour)
    surface_mat = material(bpy, "field", b.surface, b.field_colour)
    box(bpy, "base", (x0, y0, -b.base_t), (x1, y1, 0.0), frame_mat, bevel=0.004)
    plane(bpy, "field", -fw, fw, -fh, fh, 0.0003, surface_mat)
    # Rims: top, bottom, left, right; dividers between the field and each tray.
    r = b.rim_h
    box(bpy, "rim-top", (x0, fh, 0.0), (x1, y1, r), frame_mat, bevel=0.003)
    box(bpy, "rim-bottom", (x0, y0, 0.0), (x1, -fh, r), frame_mat, bevel=0.003)
    box(bpy, "rim-left", (x0, -fh, 0.0), (x0 + b.frame_w, fh, r), frame_mat, bevel=0.002)
    box(bpy, "rim-right", (x1 - b.frame_w, -fh, 0.0), (x1, fh, r), frame_mat, bevel=0.002)
    for sign in (-1.0, 1.0):
        side = "left" if sign < 0 else "right"
        if b.tray_side in (side, "both"):
            inner = sign * fw
            outer = sign * (fw + b.divider_w)
            box(
                bpy,
                f"divider-{side}",
                (min(inner, outer), -fh, 0.0),
                (max(inner, outer), fh, r),
                frame_mat,
                0.002,
            )
            t0 = sign * (fw + b.divider_w)
            t1 = sign * (fw + b.divider_w + b.tray_w)
            plane(bpy, f"tray-{side}", min(t0, t1), max(t0, t1), -fh, fh, 0.0003, surface_mat)
    if b.bar_raised:
        box(bpy, "bar", (-b.bar_w / 2, -fh, 0.0), (b.bar_w / 2, fh, r), frame_mat, bevel=0.002)
    else:
        plane(bpy, "bar", -b.bar_w / 2, b.bar_w / 2, -fh, fh, 0.0008, frame_mat)
    # Points: two meshes of triangles, one per colour, alternating along each row.
    point_mats = [
        material(bpy, f"point-{k}", b.point_surface, b.point_colours[k], 0.3) for k in (0, 1)
    ]
    triangles: list[list[tuple[float, float, float]]] = [[], []]
    half = b.point_w / 2 - 0.0012
    for point in range(1, 25):
        x, base_y, direction = point_base(b, point)
        column, top = point_column(point)
        colour_index = (column + (1 if top else 0)) % 2
        base_y += direction * 0.0008
        tip = base_y + direction * (b.point_len - 0.0008)
        triangles[colour_index] += [
            (x - half, base_y, 0.0006),
            (x + half, base_y, 0.0006),
            (x, tip, 0.0006),
        ]
    for k in (0, 1):
        verts = triangles[k]
        _mesh_object(
            bpy,
            f"points-{k}",
            verts,
            [(i, i + 1, i + 2) for i in range(0, len(verts), 3)],
            point_mats[k],
        )
    metal = material(bpy, "brass", "metal", (0.8, 0.6, 0.3), 0.3)
    if b.hinges:
        for sign in (-1.0, 1.0):
            y = sign * (fh + b.frame_w / 2)
            bpy.ops.mesh.primitive_cylinder_add(
                vertices=24,
                radius=0.004,
                depth=0.03,
                location=(0.0, y, r + 0.002),
                rotation=(0.0, math.pi / 2, 0.0),
            )
            bpy.context.active_object.data.materials.append(metal)
            bpy.ops.object.shade_smooth()
    if b.inlay:
        inlay_mat = material(bpy, "inlay", "wood", (0.6, 0.45, 0.25), 0.3)
        w = min(0.004, b.frame_w / 5)
        mid = b.frame_w / 2
        z = r + 0.0002
        plane(
            bpy, "inlay-top", x0 + mid, x1 - mid, y1 - mid - w / 2, y1 - mid + w / 2, z, inlay_mat
        )
        plane(
            bpy,
            "inlay-bottom",
            x0 + mid,
            x1 - mid,
            y0 + mid - w / 2,
            y0 + mid + w / 2,
            z,
            inlay_mat,
        )
        plane(
            bpy, "inlay-left", x0 + mid - w / 2, x0 + mid + w / 2, y0 + mid, y1 - mid, z, inlay_mat
        )
        plane(
            bpy, "inlay-right", x1 - mid - w / 2, x1 - mid + w / 2, y0 + mid, y1 - mid, z, inlay_mat
        )
        pearl = material(bpy, "pearl", "lacquer", (0.85, 0.82, 0.78), 0.15)
        for sign in (-1.0, 1.0):
            cx = sign * (fw / 2 + b.bar_w / 4)
            s = min(b.checker_d * 0.3, (b.field_h - 2 * b.point_len) * 0.4 + 0.004)
            _mesh_object(
                bpy,
                f"diamond-{sign}",
                [
                    (cx - s, 0, 0.0007),
                    (cx, -s / 2, 0.0007),
                    (cx + s, 0, 0.0007),
                    (cx, s / 2, 0.0007),
                ],
                [(0, 1, 2, 3)],
                pearl,
            )
    if b.logo:
        curve = bpy.data.curves.new("logo", "FONT")
        curve.body = b.logo
        curve.align_x = "CENTER"
        curve.align_y = "CENTER"
        curve.size = min(b.checker_d * 0.5, b.field_w / 2 / max(len(b.logo), 1) * 1.4)
        logo = _link(bpy, bpy.data.objects.new("logo", curve))
        logo.location = (-(fw + b.bar_w / 2) / 2, 0.0, 0.0007)
        curve.materials.append(material(bpy, "logo", "paint", b.logo_colour, 0.3))


def _checkers(bpy: Any, scene: Scene) -> None:
    style = scene.checkers_style
    d = scene.board.checker_d
    templates = {}
    for colour, rgb in (("white", style.white), ("black", style.black)):
        kind = "wood" if style.wooden else ("marble" if style.marbled else "plastic")
        mat = material(bpy, f"checker-{colour}", kind, rgb, style.roughness)
        templates[colour] = disc_template(
            bpy, f"checker-{colour}", d / 2, style.thickness, style.bevel, mat
        )
        if style.ridged:
            bpy.ops.mesh.primitive_torus_add(
                major_radius=d * 0.36,
                minor_radius=d * 0.012,
                major_segments=64,
                minor_segments=8,
                location=(0, 0, style.thickness / 2),
            )
            ring = bpy.context.active_object
            ring.data.materials.append(mat)
            bpy.ops.object.shade_smooth()
            ring.select_set(True)
            templates[colour].select_set(True)
            bpy.context.view_layer.objects.active = templates[colour]
            bpy.ops.object.join()
        templates[colour].location = (0.0, 0.0, -10.0)
    for index, checker in enumerate(scene.checkers):
        obj = _link(bpy, bpy.data.objects.new(f"checker-{index}", templates[checker.colour].data))
        if checker.on_edge:
            # Spun about its own axis, stood up (axis along -y), leaning, then turned.
            lean = checker.lean
            rotation = (
                _rotation("Z", checker.yaw)
                @ _rotation("X", math.pi / 2 + lean)
                @ _rotation("Z", checker.spin)
            )
            lift = d / 2 * math.cos(lean) + style.thickness / 2 * abs(math.sin(lean))
            m = np.eye(4)
            m[:3, :3] = rotation
            m[:3, 3] = (checker.x, checker.y, checker.z + lift)
            obj.matrix_world = _matrix(bpy, m.tolist())
        else:
            obj.location = (checker.x, checker.y, checker.z + style.thickness / 2)
            obj.rotation_euler = (0.0, 0.0, checker.spin)


#: Pip offsets on a face, in units of the pip spacing.
PIPS: dict[int, tuple[tuple[float, float], ...]] = {
    1: ((0, 0),),
    2: ((-1, -1), (1, 1)),
    3: ((-1, -1), (0, 0), (1, 1)),
    4: ((-1, -1), (-1, 1), (1, -1), (1, 1)),
    5: ((-1, -1), (-1, 1), (0, 0), (1, -1), (1, 1)),
    6: ((-1, -1), (-1, 0), (-1, 1), (1, -1), (1, 0), (1, 1)),
}


def _face_axes(normal: tuple[float, float, float]) -> tuple[np.ndarray, np.ndarray]:
    n = np.asarray(normal, dtype=np.float64)
    u = np.array([0.0, 1.0, 0.0]) if abs(n[0]) > 0.5 else np.array([1.0, 0.0, 0.0])
    v = np.cross(n, u)
    return u, v


def _dice(bpy: Any, scene: Scene) -> None:
    for index, die in enumerate(scene.dice):
        parent = _empty(bpy, f"die-{index}", die.matrix)
        body_kind = "glass" if die.translucent else "plastic"
        bpy.ops.mesh.primitive_cube_add(size=die.size)
        body = bpy.context.active_object
        body.name = f"die-body-{index}"
        modifier = body.modifiers.new("bevel", "BEVEL")
        modifier.width = die.rounding
        modifier.segments = 4
        bpy.ops.object.modifier_apply(modifier="bevel")
        bpy.ops.object.shade_smooth()
        body.data.materials.append(material(bpy, f"die-{index}", body_kind, die.colour, 0.15))
        body.parent = parent
        # Pips: flat discs just proud of each face (painted pips read the same from above).
        vertices: list[tuple[float, float, float]] = []
        faces: list[tuple[int, ...]] = []
        radius = die.size * 0.085
        spacing = die.size * 0.25
        for value, normal in DIE_FACES.items():
            u, v = _face_axes(normal)
            n = np.asarray(normal, dtype=np.float64)
            for a, b in PIPS[value]:
                centre = n * (die.size / 2 + 0.00012) + u * a * spacing + v * b * spacing
                start = len(vertices)
                for k in range(16):
                    angle = 2 * math.pi * k / 16
                    p = centre + radius * (math.cos(angle) * u + math.sin(angle) * v)
                    vertices.append((float(p[0]), float(p[1]), float(p[2])))
                faces.append(tuple(range(start, start + 16)))
        pips = _mesh_object(
            bpy,
            f"pips-{index}",
            vertices,
            faces,
            material(bpy, f"pip-{index}", "paint", die.pip_colour, 0.4),
        )
        pips.parent = parent


def _cube(bpy: Any, scene: Scene) -> None:
    cube = scene.cube
    if cube is None:
        return
    parent = _empty(bpy, "cube", cube.matrix)
    bpy.ops.mesh.primitive_cube_add(size=cube.size)
    body = bpy.context.active_object
    modifier = body.modifiers.new("bevel", "BEVEL")
    modifier.width = cube.size * 0.08
    modifier.segments = 3
    bpy.ops.object.modifier_apply(modifier="bevel")
    bpy.ops.object.shade_smooth()
    body.data.materials.append(material(bpy, "cube", "plastic", cube.colour, 0.25))
    body.parent = parent
    digit_mat = material(bpy, "digits", "paint", cube.digit_colour, 0.4)
    others = [v for v in CUBE_VALUES if v != cube.value]
    if cube.logo:
        # The emblem takes the place of 64: the other five faces read 2..32.
        _cube_logo(bpy, parent, cube.size, cube.logo, digit_mat)
    # Face normal -> rotation turning the text's +z onto it.
    faces = [
        ((0, 0, 1), (0.0, 0.0, 0.0), cube.value),
        ((0, 0, -1), (math.pi, 0.0, 0.0), others[0]),
        ((1, 0, 0), (0.0, math.pi / 2, 0.0), others[1]),
        ((-1, 0, 0), (0.0, -math.pi / 2, 0.0), others[2]),
        ((0, 1, 0), (-math.pi / 2, 0.0, 0.0), others[3]),
        ((0, -1, 0), (math.pi / 2, 0.0, 0.0), others[4]),
    ]
    for normal, rotation, value in faces[1 if cube.logo else 0 :]:
        curve = bpy.data.curves.new(f"digits-{value}", "FONT")
        curve.body = str(value)
        curve.align_x = "CENTER"
        curve.align_y = "CENTER"
        curve.size = cube.size * (0.62 if value < 10 else 0.46)
        curve.materials.append(digit_mat)
        text = _link(bpy, bpy.data.objects.new(f"digits-{value}", curve))
        text.parent = parent
        text.location = tuple(c * (cube.size / 2 + 0.0002) for c in normal)
        text.rotation_euler = rotation


def _cube_logo(bpy: Any, parent: Any, size: float, kind: str, mat: Any) -> None:
    """An emblem on the cube's up face: a ring around a four-pointed star, or around letters."""
    z = size / 2 + 0.0002
    vertices: list[tuple[float, float, float]] = []
    faces: list[tuple[int, ...]] = []
    outer, inner, steps = size * 0.40, size * 0.34, 48
    for k in range(steps):
        angle = 2 * math.pi * k / steps
        vertices.append((outer * math.cos(angle), outer * math.sin(angle), z))
        vertices.append((inner * math.cos(angle), inner * math.sin(angle), z))
    for k in range(steps):
        a, b = 2 * k, 2 * ((k + 1) % steps)
        faces.append((a, b, b + 1, a + 1))
    if kind == "ring-star":
        centre = len(vertices)
        vertices.append((0.0, 0.0, z))
        for k in range(8):
            angle = math.pi / 4 * k + math.pi / 4
            radius = size * (0.27 if k % 2 == 0 else 0.08)
            vertices.append((radius * math.cos(angle), radius * math.sin(angle), z))
        for k in range(8):
            faces.append((centre, centre + 1 + k, centre + 1 + (k + 1) % 8))
    ring = _mesh_object(bpy, "cube-logo", vertices, faces, mat)
    ring.parent = parent
    if kind == "monogram":
        curve = bpy.data.curves.new("cube-logo-letters", "FONT")
        curve.body = "BG"
        curve.align_x = "CENTER"
        curve.align_y = "CENTER"
        curve.size = size * 0.34
        curve.materials.append(mat)
        text = _link(bpy, bpy.data.objects.new("cube-logo-letters", curve))
        text.parent = parent
        text.location = (0.0, 0.0, z)


def _metaball(bpy: Any, name: str, segments: list[tuple[Any, Any, float]], mat: Any) -> Any:
    """One smooth body from capsule segments (a, b, radius). Blender blends the metaballs of one
    object (and of objects sharing a name's stem), so fingers get an object each and stay apart."""
    import mathutils

    ball = bpy.data.metaballs.new(name)
    ball.resolution = 0.004
    ball.render_resolution = 0.0025
    ball.threshold = 0.6
    for a, b, radius in segments:
        element = ball.elements.new()
        element.type = "CAPSULE"
        element.co = (a + b) / 2
        element.radius = radius / 0.575  # the surface sits at ~0.575 of the influence
        element.size_x = max((b - a).length / 2, 1e-4)
        element.rotation = mathutils.Vector((1.0, 0.0, 0.0)).rotation_difference(b - a)
    ball.materials.append(mat)
    return _link(bpy, bpy.data.objects.new(name, ball))


def _hands(bpy: Any, scene: Scene) -> None:
    """A forearm in a sleeve, the back of the hand as a flat rounded slab, and fingers and thumb
    of two joints each, bent down at the knuckle, with gaps between them. The label's capsules
    (:class:`synth.scene.Hand`) give the places; the shapes stay within them."""
    import mathutils

    for index, hand in enumerate(scene.hands):
        skin = material(bpy, f"skin-{index}", "skin", hand.skin)
        forearm, palm, *digits = hand.capsules
        a = mathutils.Vector(forearm.a)
        b = mathutils.Vector(forearm.b)
        # The forearm narrows towards the wrist.
        _metaball(
            bpy,
            f"forearm-{index}",
            [(a, a + (b - a) * 0.55, forearm.radius), (a + (b - a) * 0.5, b, forearm.radius * 0.8)],
            skin,
        )
        # The back of the hand: a box rounded by subdivision, flatter than it is wide.
        pa = mathutils.Vector(palm.a)
        pb = mathutils.Vector(palm.b)
        length = (pb - pa).length + palm.radius * 0.8
        width = palm.radius * 2.5
        thick = palm.radius * 0.95
        slab = box(
            bpy,
            f"palm-{index}",
            (-length / 2, -width / 2, -thick / 2),
            (length / 2, width / 2, thick / 2),
            skin,
        )
        subdivision = slab.modifiers.new("round", "SUBSURF")
        subdivision.levels = 2
        subdivision.render_levels = 3
        for polygon in slab.data.polygons:
            polygon.use_smooth = True
        slab.location = (pa + pb) / 2
        slab.rotation_mode = "QUATERNION"
        slab.rotation_quaternion = mathutils.Vector((1.0, 0.0, 0.0)).rotation_difference(pb - pa)
        for k, digit in enumerate(digits):
            da = mathutils.Vector(digit.a)
            db = mathutils.Vector(digit.b)
            # Knuckle at 55 %: the first joint runs level, the rest bends down to the tip.
            knuckle = da + (db - da) * 0.55
            knuckle.z = da.z + (db.z - da.z) * 0.15
            radius = digit.radius * 0.9
            _metaball(
                bpy,
                f"digit{k}-{index}",
                [(da, knuckle, radius), (knuckle, db, radius * 0.85)],
                skin,
            )
        # A sleeve over the elbow end of the forearm.
        mid = a + (b - a) * 0.3
        bpy.ops.mesh.primitive_cylinder_add(
            vertices=32, radius=forearm.radius * 1.5, depth=(b - a).length * 0.7, location=mid
        )
        sleeve = bpy.context.active_object
        sleeve.rotation_mode = "QUATERNION"
        sleeve.rotation_quaternion = mathutils.Vector((0.0, 0.0, 1.0)).rotation_difference(b - a)
        bpy.ops.object.shade_smooth()
        sleeve.data.materials.append(material(bpy, f"sleeve-{index}", "cloth", hand.sleeve))


def _clutter(bpy: Any, item: Clutter, index: int, table_z: float) -> None:
    sx, sy, sz = item.size
    name = f"{item.kind}-{index}"
    if item.kind in ("cup", "can"):
        kind = "plastic" if item.kind == "cup" else "metal"
        bpy.ops.mesh.primitive_cylinder_add(
            vertices=48, radius=sx, depth=sz, location=(item.x, item.y, table_z + sz / 2)
        )
        obj = bpy.context.active_object
        for polygon in obj.data.polygons:
            polygon.use_smooth = abs(polygon.normal.z) < 0.5
        obj.data.materials.append(material(bpy, name, kind, item.colour, 0.2))
        if item.kind == "cup":
            # An open top: a thin wall above the coffee's level, a rounded rim, a round surface.
            obj.scale = (1.0, 1.0, (sz - 0.012) / sz)
            obj.location = (item.x, item.y, table_z + (sz - 0.012) / 2)
            bpy.ops.mesh.primitive_cylinder_add(
                vertices=48,
                radius=sx,
                depth=0.012,
                end_fill_type="NOTHING",
                location=(item.x, item.y, table_z + sz - 0.006),
            )
            wall = bpy.context.active_object
            bpy.ops.object.shade_smooth()
            wall.data.materials.append(obj.data.materials[0])
            bpy.ops.mesh.primitive_torus_add(
                major_radius=sx - 0.0015,
                minor_radius=0.0022,
                major_segments=64,
                minor_segments=12,
                location=(item.x, item.y, table_z + sz),
            )
            bpy.ops.object.shade_smooth()
            bpy.context.active_object.data.materials.append(obj.data.materials[0])
            bpy.ops.mesh.primitive_circle_add(
                vertices=48,
                radius=sx - 0.0005,
                fill_type="NGON",
                location=(item.x, item.y, table_z + sz - 0.009),
            )
            top = material(bpy, name + "-coffee", "lacquer", (0.05, 0.02, 0.01), 0.05)
            bpy.context.active_object.data.materials.append(top)
            bpy.ops.mesh.primitive_torus_add(
                major_radius=sz * 0.25,
                minor_radius=0.005,
                location=(
                    item.x + math.cos(item.yaw) * sx * 1.1,
                    item.y + math.sin(item.yaw) * sx * 1.1,
                    table_z + sz * 0.55,
                ),
                rotation=(math.pi / 2, 0.0, item.yaw + math.pi / 2),
            )
            bpy.context.active_object.data.materials.append(obj.data.materials[0])
    else:
        kind = {"phone": "lacquer", "card": "paper", "clock": "plastic"}[item.kind]
        obj = box(
            bpy,
            name,
            (-sx, -sy, 0.0),
            (sx, sy, sz),
            material(bpy, name, kind, item.colour, 0.1),
            bevel=min(0.004, sz / 3),
        )
        obj.location = (item.x, item.y, table_z)
        obj.rotation_euler = (0.0, 0.0, item.yaw)
        if item.kind == "phone":
            screen = plane(
                bpy,
                name + "-screen",
                -sx * 0.9,
                sx * 0.9,
                -sy * 0.92,
                sy * 0.92,
                sz + 0.0002,
                material(bpy, name + "-glass", "lacquer", (0.01, 0.012, 0.02), 0.02),
            )
            screen.parent = obj
        elif item.kind == "clock":
            for k in (-1, 1):
                bpy.ops.mesh.primitive_cylinder_add(
                    vertices=32,
                    radius=sy * 0.6,
                    depth=0.002,
                    location=(k * sx * 0.5, 0.0, sz + 0.001),
                )
                face = bpy.context.active_object
                face.data.materials.append(
                    material(bpy, f"{name}-face{k}", "paint", (0.85, 0.85, 0.8), 0.3)
                )
                face.parent = obj


def _lights_and_camera(bpy: Any, scene: Scene) -> None:
    for index, light in enumerate(scene.lights):
        data = bpy.data.lights.new(f"light-{index}", light.kind)
        data.energy = light.power
        data.use_temperature = True
        data.temperature = light.temperature
        if light.kind == "AREA":
            data.shape = "RECTANGLE"
            data.size, data.size_y = light.size
        else:
            data.shadow_soft_size = light.radius
        obj = _link(bpy, bpy.data.objects.new(f"light-{index}", data))
        _aim(obj, light.location, light.target)
    world = bpy.data.worlds.new("world")
    world.use_nodes = True
    background = world.node_tree.nodes.get("Background")
    background.inputs["Color"].default_value = (*scene.world_colour, 1.0)
    background.inputs["Strength"].default_value = scene.world_strength
    bpy.context.scene.world = world
    location, rotation, _ = camera_matrix(scene)
    data = bpy.data.cameras.new("camera")
    data.lens = scene.camera.lens_mm
    data.sensor_width = 36.0
    data.sensor_fit = "AUTO"
    data.clip_start = 0.01
    camera = _link(bpy, bpy.data.objects.new("camera", data))
    m = np.eye(4)
    m[:3, :3] = rotation
    m[:3, 3] = location
    camera.matrix_world = _matrix(bpy, m.tolist())
    bpy.context.scene.camera = camera


def build(bpy: Any, scene: Scene) -> None:
    """Replace Blender's scene with ``scene``."""
    bpy.ops.wm.read_factory_settings(use_empty=True)
    table_z = -scene.board.base_t
    table_mat = material(bpy, "table", scene.table_surface, scene.table_colour)
    plane(bpy, "table", -3.0, 3.0, -3.0, 3.0, table_z, table_mat)
    _board(bpy, scene)
    _checkers(bpy, scene)
    _dice(bpy, scene)
    _cube(bpy, scene)
    _hands(bpy, scene)
    for index, item in enumerate(scene.clutter):
        _clutter(bpy, item, index, table_z)
    _lights_and_camera(bpy, scene)


def render_linear(scene: Scene, samples: int = 16) -> NDArray[np.float32]:
    """Render ``scene`` and return its linear light as H x W x 3 float32 (RGB, top row first)."""
    bpy = load_bpy()
    build(bpy, scene)
    s = bpy.context.scene
    s.render.engine = "CYCLES"
    s.cycles.device = "CPU"
    s.cycles.samples = samples
    s.cycles.use_adaptive_sampling = True
    s.cycles.use_denoising = True
    # The fast prefilter and balanced quality cost a fifth of the accurate ones on these cores.
    s.cycles.denoising_prefilter = "FAST"
    s.cycles.denoising_quality = "BALANCED"
    s.cycles.seed = scene.seed % (2**31)
    # Few bounces: a board under a lamp needs little indirect light, and these 2 cores are shared.
    s.cycles.max_bounces = 4
    s.cycles.diffuse_bounces = 2
    s.cycles.glossy_bounces = 2
    s.cycles.transmission_bounces = 4
    s.cycles.transparent_max_bounces = 4
    s.cycles.adaptive_threshold = 0.03
    s.cycles.caustics_reflective = False
    s.cycles.caustics_refractive = False
    s.cycles.blur_glossy = 1.0
    s.render.resolution_x = scene.width
    s.render.resolution_y = scene.height
    s.render.resolution_percentage = 100
    s.render.image_settings.file_format = "OPEN_EXR"
    s.render.image_settings.color_depth = "32"
    s.render.image_settings.color_mode = "RGB"
    with tempfile.TemporaryDirectory(prefix="synth-") as folder:
        path = Path(folder) / "render.exr"
        s.render.filepath = str(path)
        _quiet(lambda: bpy.ops.render.render(write_still=True))
        image = bpy.data.images.load(str(path))
        pixels = np.empty(scene.width * scene.height * 4, dtype=np.float32)
        image.pixels.foreach_get(pixels)
        bpy.data.images.remove(image)
    rgba = pixels.reshape(scene.height, scene.width, 4)
    return np.ascontiguousarray(rgba[::-1, :, :3])


def _quiet(action: Any) -> None:
    """Run ``action`` with the process's stdout silenced (Cycles prints a line per tile)."""
    saved = os.dup(1)
    devnull = os.open(os.devnull, os.O_WRONLY)
    try:
        os.dup2(devnull, 1)
        action()
    finally:
        os.dup2(saved, 1)
        os.close(devnull)
        os.close(saved)


__all__ = ["build", "field_corners_world", "render_linear", "tray_x"]
