"""Practice around the model: tabletop traces and exercise records.

The check stage runs them in compliance.check.practice."""
