"""Placeholder replaced by the exercise checks (issue 3)."""
