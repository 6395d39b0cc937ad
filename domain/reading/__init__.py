"""Reading: an action record's breakdowns, narratives, outcomes and texts, per reader."""
