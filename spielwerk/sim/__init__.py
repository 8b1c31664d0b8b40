"""Services above the agents: running matches (and later tournaments and statistics)."""
