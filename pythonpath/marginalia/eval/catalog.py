"""Every eval task, in a fixed order (the modules register them as they are imported).

The order is the scorecard's: the first 28 tasks as they always ran, then each later
module's tasks, the modules in the order they came.
"""

from typing import Dict, List

# Imported in the scorecard's order, not the alphabet's: importing registers the tasks.
from marginalia.eval import tasks_edit  # noqa: F401
from marginalia.eval import tasks_more  # noqa: F401
from marginalia.eval import tasks_modes  # noqa: F401
from marginalia.eval import tasks_long  # noqa: F401
from marginalia.eval import tasks_multi  # noqa: F401
from marginalia.eval import tasks_corpus  # noqa: F401
from marginalia.eval.task import TASKS, Task


def all_tasks() -> List[Task]:
    return list(TASKS)


def by_name() -> Dict[str, Task]:
    return {t.name: t for t in TASKS}
