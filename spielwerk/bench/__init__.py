"""Benchmarks (`spielwerk bench`): speed side by side with OpenSpiel, and the targets."""
