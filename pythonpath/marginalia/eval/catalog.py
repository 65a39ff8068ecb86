"""Every eval task, in a fixed order (the modules register them as they are imported)."""

from typing import Dict, List

from marginalia.eval import tasks_edit, tasks_more  # noqa: F401  (they register the tasks)
from marginalia.eval.task import TASKS, Task


def all_tasks() -> List[Task]:
    return list(TASKS)


def by_name() -> Dict[str, Task]:
    return {t.name: t for t in TASKS}
