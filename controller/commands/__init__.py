"""One module per ``sheshbesh`` subcommand: ``add_arguments(parser)`` and ``run(args)``."""
