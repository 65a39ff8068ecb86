"""Inside the office (uno): the Writer document tools and the turn's undo frame."""
