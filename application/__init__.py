"""Skald's application layer: commands, the writer, idempotency, corrections and queries.

It drives the pure domain/ (aggregates and rules) through the eventsourcing
library's store. Threads, the writer's queue, context variables and the store's
errors live here, never in domain/; nothing here knows about HTTP (api/).
"""
