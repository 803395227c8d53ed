"""The learner's side of the web app: what is kept about a learner (their progress, code,
attempts, drafts, review cards, tokens) and the limits on what they may ask for."""
