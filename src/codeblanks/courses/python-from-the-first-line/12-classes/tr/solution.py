class Playlist:
    """Adı olan bir şarkı listesi; her şarkı bir (başlık, saniye) ikilisidir."""

    def __init__(self, name):
        self.name = name
        self.songs = []

    def add(self, baslik, saniye):
        self.songs.append((baslik, saniye))

    def count(self):
        return len(self.songs)

    def total_seconds(self):
        toplam = 0
        for baslik, saniye in self.songs:
            toplam = toplam + saniye
        return toplam
