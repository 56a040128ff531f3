//! One figure of the summary: its value, its goal and which side of the
//! goal it must stay on.

/// One figure of the summary.
pub(super) struct Figure {
    pub(super) name: &'static str,
    pub(super) value: f64,
    pub(super) goal: f64,
    /// True when the value must stay below the goal, false when it must
    /// reach it.
    pub(super) below: bool,
    pub(super) unit: &'static str,
    pub(super) detail: String,
}

impl Figure {
    /// A ratio of our throughput to another's (`ours / theirs`) that must
    /// reach `goal`.
    pub(super) fn ratio(
        name: &'static str,
        ours: f64,
        theirs: f64,
        goal: f64,
        detail: String,
    ) -> Figure {
        Figure {
            name,
            value: ours / theirs,
            goal,
            below: false,
            unit: "ratio",
            detail,
        }
    }

    pub(super) fn met(&self) -> bool {
        if self.below {
            self.value < self.goal
        } else {
            self.value >= self.goal
        }
    }
}
