//! Where one launch's places are estimated at more than the launch's time
//! together: each estimate is what its fix saves alone (more blocks, or
//! whole vector stores), so fixes of one kernel overlap and their estimates
//! do not add up. The human and HTML reports say so under the place's
//! header.

use crate::report::units::duration;
use crate::rules::{CheckResult, Finding};

/// `fixes overlap: ...` for the launch `kernel`, where its places' largest
/// estimates add up past its duration; `None` otherwise.
pub(crate) fn sentence(result: &CheckResult, kernel: usize) -> Option<String> {
    let launch: Vec<&Finding> = result
        .findings
        .iter()
        .filter(|f| f.kernel == kernel)
        .collect();
    let kernel_ns = launch.iter().find_map(|f| f.estimate.kernel_ns)?;
    let mut places: Vec<(&Finding, f64)> = Vec::new();
    for finding in &launch {
        let Some(saved) = finding.estimate.saved_ns else {
            continue;
        };
        match places.iter_mut().find(|(p, _)| same_place(p, finding)) {
            Some((_, most)) => *most = most.max(saved),
            None => places.push((finding, saved)),
        }
    }
    let together: f64 = places.iter().map(|(_, saved)| saved).sum();
    (places.len() > 1 && together > kernel_ns).then(|| {
        format!(
            "fixes overlap: this launch's {} places are estimated at {} together, past its {}; each estimate is of its fix alone",
            places.len(),
            duration(together),
            duration(kernel_ns)
        )
    })
}

/// Whether two findings of one launch are views of one cause at one place.
fn same_place(a: &Finding, b: &Finding) -> bool {
    a.cause == b.cause && a.location == b.location
}
