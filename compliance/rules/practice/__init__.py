"""Practice rules: tabletop paths no verified control stops, exercises and their promises,
the layer metrics against their thresholds, and layer drills."""

from compliance.rules.base import Rule
from compliance.rules.practice.drl001_layer_drill_failed import LayerDrillFailed
from compliance.rules.practice.drl002_layer_not_drilled import LayerNotDrilled
from compliance.rules.practice.met001_metric_threshold_crossed import MetricThresholdCrossed
from compliance.rules.practice.met002_unreadable_export import UnreadableExport
from compliance.rules.practice.met003_metric_unmeasured import MetricUnmeasured
from compliance.rules.practice.ttx001_unstopped_attack_path import UnstoppedAttackPath
from compliance.rules.practice.ttx002_improvement_overdue import ImprovementOverdue
from compliance.rules.practice.ttx003_no_recent_exercise import NoRecentExercise

PRACTICE_RULES: dict[str, type[Rule]] = {
    r.code: r for r in (UnstoppedAttackPath, ImprovementOverdue, NoRecentExercise,
                        MetricThresholdCrossed, UnreadableExport, MetricUnmeasured,
                        LayerDrillFailed, LayerNotDrilled)
}
