class Playlist:
    """A named list of songs; each song is a (title, seconds) pair."""

    def __init__(self, name):
        self.name = name
        self.songs = []

    def add(self, title, seconds):
        self.songs.append((title, seconds))

    def count(self):
        return len(self.songs)

    def total_seconds(self):
        total = 0
        for title, seconds in self.songs:
            total = total + seconds
        return total

