"""Game server for turn-based games with hidden information (Mount Drago, Yutakâ)."""
