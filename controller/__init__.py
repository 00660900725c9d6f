"""The referee and everything around it: rules engine, play inference, record, LEDs, command line."""
