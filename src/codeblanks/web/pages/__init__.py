"""What renders pages: the reads a page needs (``selectors``), the lesson's prose, questions,
course maps and heatmaps, and the parts of pages kept once rendered."""
