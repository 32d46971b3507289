"""crib3: three-player cribbage for the terminal."""

__version__ = "0.1.0"
