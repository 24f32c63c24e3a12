"""The vocabulary every stage shares: the task, encoded predictions, errors, warnings, problems, the decision rule
and how numbers are written for people. Imports nothing of `assess` above it."""
