"""What the kit writes: the report as data and text (report, spool, jsonl), JUnit XML (junit),
the HTML page (html), comparisons and badges (compare, badge, baseline) and what a variant
changes (variants).

Imports: diagnosis and every room below it.
"""
