"""`python -m compliance` runs the command line."""

from compliance.cli import main

main()
