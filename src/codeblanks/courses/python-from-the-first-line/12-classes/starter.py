class Playlist:
    """A named list of songs; each song is a (title, seconds) pair."""

    def __init__(self, name):
        self.name = name
        self.songs = ____

    def add(self, title, seconds):
        ____

    def count(self):
        return ____

    def total_seconds(self):
        total = 0
        ____
        return total

