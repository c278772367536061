"""Events, entrants and teams, stages, seeding, advancement, standings."""
