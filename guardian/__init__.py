"""guardian package."""
