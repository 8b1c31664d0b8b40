"""Adapters to research frameworks (the `rl` extra): PettingZoo environments
(`spielwerk.adapters.pettingzoo`) and OpenSpiel games (`spielwerk.adapters.openspiel`)."""
