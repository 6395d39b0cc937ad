"""Read models in Redis, built from the event store."""
