# Copied to the Pico's root; MicroPython runs it at power-up. The package lives in /firmware/.
from firmware import pico

pico.main()
