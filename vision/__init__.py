"""Reading a real backgammon board from a camera: calibration, settle detection, checkers, dice, cube."""
