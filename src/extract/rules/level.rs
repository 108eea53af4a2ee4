//! The level the person stated or clearly described: "for a beginner",
//! "intermediate player", "pro level", "новичок", "профи".
//!
//! "Pro" is also part of model names ("Pro Staff 97", "AirPods Pro 2"), so
//! it counts only where the sentence makes it a level ("for a pro", "pro
//! level") and only on tokens no model has claimed. "Advanced" is left out on
//! purpose: it sits between intermediate and pro, and a guess is not a fact.

use crate::facts::Level;
use crate::words::class::CUES;
use crate::words::text::Request;

/// The stated level and the token that states it.
pub fn extract(request: &Request) -> Option<(Level, usize)> {
    for index in 0..request.len() {
        if request.is_consumed(index) {
            continue;
        }
        let word = request.word(index);
        let level = level_of(request, index, word);
        if let Some(level) = level
            && !request.preceded_by(index, 2, &[&["not"], &["не"], &["no"]])
        {
            return Some((level, index));
        }
    }
    None
}

fn level_of(request: &Request, index: usize, word: &str) -> Option<Level> {
    if word.starts_with("beginner") || word.starts_with("novice") || word.starts_with("новичк") || word == "новичок"
    {
        return Some(Level::Beginner);
    }
    if word.starts_with("начинающ") {
        return Some(Level::Beginner);
    }
    if word == "intermediate" || (word.starts_with("средн") && request.word(index + 1).starts_with("уровн")) {
        return Some(Level::Intermediate);
    }
    // "professional grade", "профессиональный фен" describe quality, not the
    // person's level (LABELLING.md); the noun and "professional level" do.
    let level_noun = CUES.has_mark(request.word(index + 1), "level-noun")
        || CUES.has_mark(request.word_before(index, 1), "level-before");
    if (word.starts_with("professional") || word.starts_with("профессиональн")) && level_noun {
        return Some(Level::Pro);
    }
    if word == "профи" || matches!(word, "профессионал" | "профессионала" | "professionals") || word == "expert"
    {
        return Some(Level::Pro);
    }
    if word == "pro" {
        let level_context = matches!(request.word(index + 1), "level" | "player" | "players")
            || matches!(request.word_before(index, 1), "a" | "for" | "i'm" | "am");
        return level_context.then_some(Level::Pro);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    fn level(text: &str) -> Option<Level> {
        extract(&Request::new(text)).map(|(level, _)| level)
    }

    #[test]
    fn stated_levels() {
        assert_eq!(level("a racket for a beginner"), Some(Level::Beginner));
        assert_eq!(level("beginner-friendly Babolat"), Some(Level::Beginner));
        assert_eq!(level("intermediate player"), Some(Level::Intermediate));
        assert_eq!(level("I'm a 5.0 player (pro level basically)"), Some(Level::Pro));
        assert_eq!(level("Ракетка для новичка"), Some(Level::Beginner));
        assert_eq!(level("для среднего уровня"), Some(Level::Intermediate));
        assert_eq!(level("для профи"), Some(Level::Pro));
    }

    #[test]
    fn pro_in_a_name_or_negated_is_not_a_level() {
        assert_eq!(level("AirPods Pro 2"), None);
        assert_eq!(level("iPhone 15 Pro case"), None);
        assert_eq!(level("not a beginner"), None);
        assert_eq!(level("advanced player"), None);
        assert_eq!(level("фен обязательно профессиональный от 2000вт"), None);
        assert_eq!(level("professional grade tools"), None);
        assert_eq!(level("for a professional"), Some(Level::Pro));
    }
}
