"""The facts the grader shares with the browser, read from `facts.json` (their one home)."""

import json
from pathlib import Path

FACTS = json.loads((Path(__file__).parent / "facts.json").read_text(encoding="utf-8"))

BLANK = FACTS["blank"]
OUTPUT_LIMIT = FACTS["output_limit"]
MESSAGE_LIMIT = FACTS["message_limit"]
TOLERANCE = FACTS["tolerance"]
SAME_TO_ROUNDING = FACTS["same_to_rounding"]  # the capstone's "trained alike" (its page says the bound)
QUESTION_TOLERANCE = FACTS["question_tolerance"]  # a number question's, unless it sets its own
TIMEOUT_SUMMARY = FACTS["timeout_summary"]  # the CLI's time limit and the browser's watchdog say the same
HEADLINE = FACTS["headline"]
MAX_OUTPUTS_PER_CASE = FACTS["max_outputs_per_case"]
STORAGE = FACTS["storage"]
