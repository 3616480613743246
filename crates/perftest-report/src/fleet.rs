//! A fleet: reports grouped by GPU model, each group judged by the outlier rule
//! ([`crate::outliers`]) on its own.
//!
//! The rule: reports measured by perftest belong to the group of their GPU's name, whatever
//! their Vulkan API version, driver or perftest version (a node after a driver update is still
//! judged with its model's group, and the difference of its driver is shown beside it). A
//! published table is its own kind (its API and tool), never a member of a run's group. A
//! report whose group has fewer than [`MIN_REPORTS_FOR_FLAGS`] reports cannot be judged, and
//! the comparison says so rather than pass it.

use std::collections::HashMap;

use crate::outliers::{
    summarize_inputs, CaseNames, NodeInput, NodeSummary, OutlierRule, MIN_REPORTS_FOR_FLAGS,
};
use crate::schema::Report;

/// Which group a report belongs to: its GPU's name, and for a published table its API and
/// tool (`None` for a report perftest measured, whatever its versions).
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct GroupKey {
    /// The GPU's name.
    pub model: String,
    /// `(api, tool)` of a published table.
    pub published: Option<(String, String)>,
}

impl GroupKey {
    /// The group `report` belongs to.
    pub fn of(report: &Report) -> GroupKey {
        GroupKey {
            model: report.device.name.clone(),
            published: report
                .source
                .as_ref()
                .map(|s| (s.api.clone(), s.tool.clone())),
        }
    }

    /// How the group is named in the summary.
    pub fn describe(&self) -> String {
        match &self.published {
            None => format!("GPU model {}", self.model),
            Some((api, tool)) => format!("{} ({api}, published by {tool})", self.model),
        }
    }
}

/// What a fleet comparison keeps of one report: a few bytes per case and its descriptions.
#[derive(Clone, Debug, PartialEq)]
pub struct Member {
    /// The file it was read from.
    pub label: String,
    /// Its device (name and PCI address).
    pub device: String,
    /// Its software: Vulkan API version, driver and perftest version.
    pub software: String,
    /// Its group.
    pub key: GroupKey,
    /// Its figures.
    pub input: NodeInput,
}

impl Member {
    /// What a fleet comparison keeps of `report`, read from `label`; its cases' ids and names
    /// go into `names`, shared by every member.
    pub fn of(report: &Report, label: &str, names: &mut CaseNames) -> Member {
        let d = &report.device;
        let device = match &d.pci_bus {
            Some(pci) => format!("{}, PCI {pci}", d.name),
            None => d.name.clone(),
        };
        let driver: Vec<&str> = [d.driver_name.as_str(), d.driver_info.as_str()]
            .into_iter()
            .filter(|s| !s.trim().is_empty())
            .collect();
        let software = format!(
            "{}, driver {}, {}",
            crate::gpu_matrix::api(report),
            if driver.is_empty() {
                "unnamed".to_string()
            } else {
                driver.join(" ")
            },
            crate::gpu_matrix::tool(report)
        );
        Member {
            label: label.to_string(),
            device,
            software,
            key: GroupKey::of(report),
            input: NodeInput::of(report, names),
        }
    }
}

/// One GPU model's reports and their verdicts.
#[derive(Clone, Debug, PartialEq)]
pub struct Group {
    /// The group.
    pub key: GroupKey,
    /// Its members, in the order given.
    pub members: Vec<Member>,
    /// The node summary of its members (the rule needs [`MIN_REPORTS_FOR_FLAGS`] of them).
    pub summary: NodeSummary,
}

impl Group {
    /// True when its members do not all run the same software (a driver update on some nodes).
    pub fn mixed_software(&self) -> bool {
        self.members
            .windows(2)
            .any(|w| w[0].software != w[1].software)
    }

    /// What member `r` is: its device, and its software when the group's members differ in it.
    pub fn describe(&self, r: usize) -> String {
        match self.members.get(r) {
            Some(m) if self.mixed_software() => format!("{}; {}", m.device, m.software),
            Some(m) => m.device.clone(),
            None => String::new(),
        }
    }

    /// Members the rule could not judge: every one of a group under [`MIN_REPORTS_FOR_FLAGS`]
    /// reports, and those sharing no judged case with the others.
    pub fn unjudged(&self) -> Vec<usize> {
        if self.members.len() < MIN_REPORTS_FOR_FLAGS {
            let unmeasured = self.summary.unmeasured_reports();
            return (0..self.members.len())
                .filter(|r| !unmeasured.contains(r))
                .collect();
        }
        self.summary.unjudged_reports()
    }
}

/// Every group of a comparison, in the order their first report was given.
#[derive(Clone, Debug, PartialEq)]
pub struct Fleet {
    /// The groups.
    pub groups: Vec<Group>,
}

/// What a fleet comparison concludes, the worst first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// A report is an outlier of its group, or measured nothing.
    Flagged,
    /// A report could not be judged (too few reports of its GPU model).
    Unjudged,
    /// Every report was judged and none is off.
    Healthy,
}

impl Fleet {
    /// Groups `members` (made with `names`) by [`GroupKey`] and judges each group with `rule`.
    pub fn of(members: Vec<Member>, names: &CaseNames, rule: OutlierRule) -> Fleet {
        let mut index: HashMap<GroupKey, usize> = HashMap::new();
        let mut grouped: Vec<(GroupKey, Vec<Member>)> = Vec::new();
        for member in members {
            let i = *index.entry(member.key.clone()).or_insert_with(|| {
                grouped.push((member.key.clone(), Vec::new()));
                grouped.len() - 1
            });
            grouped[i].1.push(member);
        }
        let groups = grouped
            .into_iter()
            .map(|(key, members)| {
                let inputs: Vec<&NodeInput> = members.iter().map(|m| &m.input).collect();
                let labels: Vec<String> = members.iter().map(|m| m.label.clone()).collect();
                let summary = summarize_inputs(&inputs, names, &labels, rule);
                Group {
                    key,
                    members,
                    summary,
                }
            })
            .collect();
        Fleet { groups }
    }

    /// True when every report is of another GPU, API or tool: a comparison across GPUs, not a
    /// fleet (the cross-GPU matrix).
    pub fn is_cross_gpu(&self) -> bool {
        self.groups.len() > 1 && self.groups.iter().all(|g| g.members.len() == 1)
    }

    /// The worst verdict over the groups.
    pub fn verdict(&self) -> Verdict {
        if self
            .groups
            .iter()
            .any(|g| !g.summary.flagged_reports().is_empty())
        {
            Verdict::Flagged
        } else if self.groups.iter().any(|g| !g.unjudged().is_empty()) {
            Verdict::Unjudged
        } else {
            Verdict::Healthy
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::samples::{measurement, sample_report};

    /// A report of GPU `model`, its driver `driver`, every measured case `scale` times slower.
    fn report(model: &str, driver: &str, scale: f64) -> Report {
        let mut report = sample_report();
        report.device.name = model.to_string();
        report.device.driver_info = driver.to_string();
        for case in &mut report.cases {
            if let Some(m) = case.measurement.as_mut() {
                *m = measurement(1000, &[10e6 * scale; 3]);
            }
        }
        report
    }

    fn fleet(reports: &[Report]) -> Fleet {
        let mut names = CaseNames::default();
        let members = reports
            .iter()
            .enumerate()
            .map(|(i, r)| Member::of(r, &format!("r{i}"), &mut names))
            .collect();
        Fleet::of(members, &names, OutlierRule::default())
    }

    /// Drivers do not split a model's group; a model with one report is not judged, and the
    /// verdict is the worst over the groups.
    #[test]
    fn each_model_is_judged_whatever_its_drivers() {
        let mut reports = vec![
            report("A", "1.0", 1.0),
            report("A", "2.0", 1.0001),
            report("A", "1.0", 0.9999),
        ];
        let healthy = fleet(&reports);
        assert_eq!(healthy.groups.len(), 1);
        assert!(healthy.groups[0].mixed_software());
        assert_eq!(healthy.verdict(), Verdict::Healthy);
        reports.push(report("B", "1.0", 1.0));
        let stray = fleet(&reports);
        assert_eq!(stray.groups.len(), 2);
        assert!(!stray.is_cross_gpu());
        assert_eq!(stray.verdict(), Verdict::Unjudged);
        assert_eq!(stray.groups[1].unjudged(), [0]);
        assert_eq!(stray.groups[1].members[0].label, "r3");
        reports.push(report("A", "2.0", 1.1));
        assert_eq!(fleet(&reports).verdict(), Verdict::Flagged);
        let cross = fleet(&[
            report("A", "", 1.0),
            report("B", "", 1.0),
            report("C", "", 1.0),
        ]);
        assert!(cross.is_cross_gpu());
    }
}
