"""Read models in Redis, built from the event store.

Three projections (vitals, encounter board, audit log with its live feed) are
applied together, a batch of events at a time, each batch committed to Redis in
one atomic script together with every projection's tracking position. See
docs/projections.md.
"""
