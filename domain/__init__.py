"""Skald's domain: pure rules, dice and event-sourced aggregates.

Nothing here performs I/O of its own; persistence is configured through the
eventsourcing library's environment by the composition root.
"""
