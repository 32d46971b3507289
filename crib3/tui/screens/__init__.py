"""The screens of the terminal game."""
