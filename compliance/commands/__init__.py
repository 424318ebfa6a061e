"""One click command per module. Each imports its heavy implementation inside the function."""
