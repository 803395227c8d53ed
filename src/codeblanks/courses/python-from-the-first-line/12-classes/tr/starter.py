class Playlist:
    """Adı olan bir şarkı listesi; her şarkı bir (başlık, saniye) ikilisidir."""

    def __init__(self, name):
        self.name = name
        self.songs = ____

    def add(self, baslik, saniye):
        ____

    def count(self):
        return ____

    def total_seconds(self):
        toplam = 0
        ____
        return toplam
