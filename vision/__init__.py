"""Reading a real backgammon board from a camera: calibration, settle detection, checkers, dice, cube.

One public function per stage, over BGR uint8 numpy images:

* :func:`vision.calibration.calibrate` — ArUco markers (or four corners by hand) -> homography, and
  the board's looks learned from a frame of the starting position; saved and loaded as JSON.
* :class:`vision.settle.SettleDetector` — ``settled``, ``moving`` or ``occluded`` for each frame.
* :func:`vision.reader.read_marker_board` — checkers per location, dice and cube -> ``Observation``.
* :func:`vision.dice.read_dice_photo` — dice anywhere in a photo with no board.
* :func:`vision.synth.render.render` — the synthetic camera (tests, benchmark, ``sheshbesh demo``).
* :mod:`vision.sources` — camera, video, folder of images, rendered frames.
* :mod:`vision.overlay`, :mod:`vision.markers`, :mod:`vision.capture` — overlays for people to
  check, the printable marker sheet, labelled frames saved as a dataset.

Thresholds live in :class:`vision.config.ReaderConfig`; errors derive from
:class:`vision.errors.VisionError`. Nothing here imports ``controller``.
"""
