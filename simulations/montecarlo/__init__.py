"""Pure Monte Carlo simulation of tournament stages (no Django, no project app but
``tournaments.formats``, whose generators give the bracket structure).

- `model`: win probabilities (a rating gap through a normal CDF, a matchup chart's log-odds,
  best-of-N series).
- `elimination`: single and double elimination, simulated many times from a probability matrix.
- `round_robin`: groups (every pair once) and their advancing places.
- `tables`: Swiss (paired by ``tournaments.formats.swiss``), league and round-robin stages to
  their final standings: each entrant's chance of each place.
- `calibration`: Brier score and reliability bins.
- `bench`: ``python -m simulations.montecarlo.bench`` times a 256-entrant double elimination
  (``--format swiss`` a Swiss stage, ``--format round_robin`` one group).
"""
