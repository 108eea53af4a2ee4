//! The comparison chart: per-field accuracy per extractor (left) and wrong
//! carts missed vs right carts stopped per pair (right), as one SVG.
//!
//! Drawn with `plotters`' SVG backend only and its built-in text layout, so
//! the binary needs no font files or system libraries; the viewer renders
//! the text. Pure: the same report draws the same bytes.

use plotters::prelude::*;

use super::compare::{CompareReport, DecisionEffect, FIELDS};

/// The chart could not be drawn.
#[derive(Debug, thiserror::Error)]
#[error("cannot draw the chart: {0}")]
pub struct ChartError(#[from] DrawingAreaErrorKind<std::io::Error>);

const WIDTH: u32 = 1400;
const HEIGHT: u32 = 600;
/// Bar colours for extractors, in order; distinct in print and for the
/// common colour-vision deficiencies (Okabe–Ito).
const PALETTE: [RGBColor; 7] = [
    RGBColor(0, 114, 178),
    RGBColor(230, 159, 0),
    RGBColor(0, 158, 115),
    RGBColor(204, 121, 167),
    RGBColor(86, 180, 233),
    RGBColor(213, 94, 0),
    RGBColor(240, 228, 66),
];
/// The accuracy axis ends here: no extractor is more than 100% right.
const ACCURACY_AXIS_END: f64 = 100.0;
/// Pixels on the right of the accuracy chart for its legend.
const LEGEND_WIDTH: u32 = 170;
const MISSED: RGBColor = RGBColor(213, 94, 0);
const STOPPED: RGBColor = RGBColor(0, 114, 178);
const EXTRA: RGBColor = RGBColor(153, 153, 153);

/// Reads one count off a pair's decision effect.
type Measure = fn(&DecisionEffect) -> u64;

/// Renders the report's chart as SVG text.
pub fn render(report: &CompareReport) -> Result<String, ChartError> {
    let mut svg = String::new();
    {
        let root = SVGBackend::with_string(&mut svg, (WIDTH, HEIGHT)).into_drawing_area();
        root.fill(&WHITE)?;
        let (left, right) = root.split_horizontally(WIDTH * 62 / 100);
        draw_accuracy(&left, report)?;
        draw_pairs(&right, report)?;
        root.present()?;
    }
    Ok(svg)
}

fn draw_accuracy(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    report: &CompareReport,
) -> Result<(), ChartError> {
    let count = report.extractors.len().max(1);
    let slots = FIELDS.len();
    // The legend gets its own strip on the right, so the accuracy axis ends
    // at 100% (a range past it, to make room, read as if more were possible).
    let (plot, legend) = area.split_horizontally(area.dim_in_pixel().0.saturating_sub(LEGEND_WIDTH));
    // Horizontal bars, so the field names read left to right; the first
    // field on top.
    let mut chart = ChartBuilder::on(&plot)
        .caption(format!("Per-field accuracy, {} ({} tasks)", report.dataset, report.tasks), ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(140)
        .build_cartesian_2d(0f64..ACCURACY_AXIS_END, -0.5f64..(slots as f64 - 0.5))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .y_labels(slots)
        .y_label_formatter(&|y| {
            slot_label(*y, slots).and_then(|index| FIELDS.get(index)).map_or("", |field| field.as_str()).to_owned()
        })
        .y_label_style(("sans-serif", 14))
        .x_labels(11)
        .x_label_formatter(&|x| format!("{x:.0}%"))
        .x_desc("tasks correct")
        .draw()?;
    let height = 0.8 / count as f64;
    for (index, row) in report.extractors.iter().enumerate() {
        let colour = PALETTE[index % PALETTE.len()];
        let bars = FIELDS.iter().enumerate().map(|(position, field)| {
            let accuracy = row.accuracy.get(field.as_str()).and_then(|score| score.accuracy()).unwrap_or(0.0) * 100.0;
            let centre = (slots - 1 - position) as f64;
            let top = centre + 0.4 - index as f64 * height;
            Rectangle::new([(0.0, top), (accuracy, top - height * 0.9)], colour.filled())
        });
        chart.draw_series(bars)?;
        let y = 60 + 22 * index as i32;
        legend.draw(&Rectangle::new([(8, y - 5), (20, y + 5)], colour.filled()))?;
        legend.draw(&Text::new(row.name.clone(), (26, y - 7), ("sans-serif", 14)))?;
    }
    Ok(())
}

/// The index (top first) of the slot centred at `y` among `slots`, if `y`
/// is a whole position: plotters puts labels at "nice" numbers, which for
/// these ranges are the whole ones.
fn slot_label(y: f64, slots: usize) -> Option<usize> {
    let rounded = y.round();
    if (y - rounded).abs() > 0.01 || rounded < 0.0 || rounded as usize >= slots {
        return None;
    }
    Some(slots - 1 - rounded as usize)
}

fn draw_pairs(
    area: &DrawingArea<SVGBackend, plotters::coord::Shift>,
    report: &CompareReport,
) -> Result<(), ChartError> {
    let labels: Vec<String> = report.pairs.iter().map(|row| row.label()).collect();
    let highest = report
        .pairs
        .iter()
        .map(|row| row.decisions.wrong_missed.max(row.decisions.right_stopped).max(row.decisions.extra_questions))
        .max()
        .unwrap_or(0);
    // Room on the right for the legend.
    let right = (highest as f64 * 1.6).max(5.0);
    let slots = labels.len().max(1);
    let mut chart = ChartBuilder::on(area)
        .caption("Missed vs stopped per pair (labelled carts)", ("sans-serif", 20))
        .margin(12)
        .x_label_area_size(40)
        .y_label_area_size(150)
        .build_cartesian_2d(0f64..right, -0.5f64..(slots as f64 - 0.5))?;
    chart
        .configure_mesh()
        .disable_y_mesh()
        .light_line_style(WHITE)
        .y_labels(slots)
        .y_label_formatter(&|y| slot_label(*y, slots).and_then(|index| labels.get(index).cloned()).unwrap_or_default())
        .y_label_style(("sans-serif", 14))
        .x_desc("carts")
        .x_label_formatter(&|x| format!("{x:.0}"))
        .draw()?;
    let series: [(&str, RGBColor, Measure); 3] = [
        ("wrong carts missed", MISSED, |decisions| decisions.wrong_missed),
        ("right carts stopped", STOPPED, |decisions| decisions.right_stopped),
        ("extra questions", EXTRA, |decisions| decisions.extra_questions),
    ];
    let height = 0.8 / series.len() as f64;
    for (index, (name, colour, value)) in series.into_iter().enumerate() {
        let bars = report.pairs.iter().enumerate().map(|(position, row)| {
            let centre = (slots - 1 - position) as f64;
            let top = centre + 0.4 - index as f64 * height;
            Rectangle::new([(0.0, top), (value(&row.decisions) as f64, top - height * 0.9)], colour.filled())
        });
        chart
            .draw_series(bars)?
            .label(name)
            .legend(move |(x, y)| Rectangle::new([(x, y - 5), (x + 12, y + 5)], colour.filled()));
        // The count beside each bar, so a zero is visible as a zero.
        let counts = report.pairs.iter().enumerate().map(|(position, row)| {
            let centre = (slots - 1 - position) as f64;
            let top = centre + 0.4 - index as f64 * height;
            let count = value(&row.decisions);
            Text::new(count.to_string(), (count as f64 + right * 0.01, top - height * 0.15), ("sans-serif", 12))
        });
        chart.draw_series(counts)?;
    }
    chart
        .configure_series_labels()
        .position(SeriesLabelPosition::UpperRight)
        .background_style(WHITE.mix(0.9))
        .border_style(BLACK)
        .label_font(("sans-serif", 14))
        .draw()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::compare::{ExtractorRow, FieldScore, Pair, PairRow};
    use crate::sandbox::dataset::SplitFilter;

    #[test]
    fn the_chart_names_every_field_extractor_and_pair() {
        let accuracy = FIELDS
            .iter()
            .map(|field| (field.as_str().to_owned(), FieldScore { correct: 3, total: 4, ..FieldScore::default() }))
            .collect();
        let report = CompareReport {
            dataset: "tiny".into(),
            split: SplitFilter::All,
            tasks: 4,
            gold_questions: 2,
            extractors: vec![ExtractorRow {
                name: "gold".into(),
                failures: 0,
                accuracy,
                decisions: DecisionEffect::default(),
                grounded: DecisionEffect::default(),
                latency_median_ms: 0,
                latency_p95_ms: 0,
                input_tokens: None,
                cached_input_tokens: None,
                output_tokens: None,
            }],
            pairs: vec![PairRow {
                policy: crate::extract::merge::MergePolicy::Spec,
                pair: Pair::parse("gold,noisy:1:0.2").unwrap(),
                failures: 0,
                disputed: Default::default(),
                accuracy: Default::default(),
                decisions: DecisionEffect { wrong_missed: 3, right_stopped: 1, ..DecisionEffect::default() },
            }],
        };
        let svg = render(&report).unwrap();
        assert!(svg.starts_with("<svg"), "{}", &svg[..40]);
        for name in
            FIELDS.iter().map(|field| field.as_str()).chain(["gold", "gold + noisy:1:0.2", "wrong carts missed"])
        {
            assert!(
                svg.contains(&format!(">{name}<")) || svg.contains(&format!(">\n{name}")) || svg.contains(name),
                "{name}"
            );
        }
        assert_eq!(svg, render(&report).unwrap(), "the same report draws the same bytes");
        // Issue 13: the accuracy axis stops at 100%.
        let ticks: Vec<&str> = svg.lines().filter(|line| line.ends_with('%')).collect();
        assert_eq!(ticks.last(), Some(&"100%"), "the axis is labelled up to 100%, no further: {ticks:?}");
    }
}
