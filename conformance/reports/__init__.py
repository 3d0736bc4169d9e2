"""What the kit writes: the report as data and text (report, spool, jsonl), JUnit XML (junit),
the HTML page (html), comparisons and badges (compare, badge, baseline), what a variant
changes (variants), and how every report reaches its file: atomically, strict JSON, locked
while streamed (files).

Imports: diagnosis and every room below it.
"""
