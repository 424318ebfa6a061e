"""Practice rules: tabletop paths no verified control stops, exercises and their promises."""

from compliance.rules.base import Rule
from compliance.rules.practice.ttx001_unstopped_attack_path import UnstoppedAttackPath
from compliance.rules.practice.ttx002_improvement_overdue import ImprovementOverdue
from compliance.rules.practice.ttx003_no_recent_exercise import NoRecentExercise

PRACTICE_RULES: dict[str, type[Rule]] = {
    r.code: r for r in (UnstoppedAttackPath, ImprovementOverdue, NoRecentExercise)
}
