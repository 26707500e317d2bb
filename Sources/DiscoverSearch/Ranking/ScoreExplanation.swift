import Foundation

/// Why a hit scored what it did: every part of the score, as typed data and as text.
///
/// The parts multiply out to the score:
/// `score = textScore · staticFactor · qualityFactor`, where
/// `textScore` is the sum of the terms' scores (each already weighed by its typo or prefix
/// penalty) and `staticFactor` is
/// `1 + popularity.weight · popularity.signal + recency.weight · recency.signal`
/// (see ``RankingOptions``). Request it with `explain: true` on a search.
public struct ScoreExplanation: Sendable, Hashable, CustomStringConvertible {
  /// A term's occurrences in one field.
  public struct FieldMatch: Sendable, Hashable {
    public var field: SearchField
    /// How many times the term occurs in the field.
    public var termFrequency: Int
    /// The field's length in tokens.
    public var fieldLength: Int
    /// The field's average length over the type.
    public var averageFieldLength: Double
    /// The field's weight `w_f`.
    public var weight: Double
    /// `w_f · tf / (1 − b + b · len / avglen)`: the field's part of the weighted frequency.
    public var contribution: Double
  }

  /// One query term's part of the text score.
  public struct TermMatch: Sendable, Hashable {
    /// The term as typed (folded).
    public var term: String
    /// The form that matched: the term itself, or an alternative such as an emoji's name.
    public var matchedForm: String
    /// Its inverse document frequency in the type.
    public var idf: Double
    /// Where it occurs.
    public var fields: [FieldMatch]
    /// `x`: the sum of the fields' contributions.
    public var weightedFrequency: Double
    /// The typos between the term as typed and the form that matched.
    public var typos: Int
    /// The factor on this term for typos (``TypoTolerance/penalty`` per typo) or for a
    /// completion of a partial word (``MatchingOptions/prefixPenalty``); 1 as typed.
    public var penalty: Double
    /// `idf · x · (k1 + 1) / (k1 + x) · penalty`.
    public var score: Double
    /// How the matched form came to be searched: as typed, completed, corrected, in the
    /// other grammatical number, or joined with the next or previous word.
    public var origin: WordOrigin = .typed
    /// The word typed when this term is a piece of words typed without a space
    /// (`tomcruise` gives the terms "tom" and "cruise").
    public var splitFrom: String?
  }

  /// The popularity signal.
  public struct Popularity: Sendable, Hashable {
    /// The count it is computed from (views, followers or videos using a sound).
    public var count: Int
    public var pivot: Double
    /// `count / (count + pivot)`.
    public var signal: Double
    public var weight: Double
  }

  /// The recency signal.
  public struct Recency: Sendable, Hashable {
    /// Seconds from creation to the origin; `nil` without a creation date (or for types
    /// without dates).
    public var ageSeconds: Double?
    /// The decay at that age (0 without a date).
    public var signal: Double
    public var weight: Double
  }

  /// BM25's `k1`.
  public var k1: Double
  /// The matched terms, in the order they were summed.
  public var terms: [TermMatch]
  /// BM25F: the sum of the terms' scores.
  public var textScore: Double
  public var popularity: Popularity
  public var recency: Recency
  /// `1 + popularity.weight · popularity.signal + recency.weight · recency.signal`.
  public var staticFactor: Double
  /// Whether a name field holds exactly the query's words.
  public var isExactMatch: Bool
  /// The share of consecutive query word pairs found next to each other, in order.
  public var adjacency: Double
  /// Whether the hit was in the re-ranking window (otherwise exactness and adjacency are
  /// shown but not applied).
  public var isReranked: Bool
  /// `1 + exactness · exact + proximity · adjacency` when re-ranked, else 1.
  public var qualityFactor: Double
  /// The smallest ``TermMatch/penalty`` of the matched terms: below 1 when a word
  /// matched through a typo correction or a prefix completion. Already part of the terms'
  /// scores, so not a factor of its own.
  public var typoPenalty: Double
  /// The hit's score.
  public var score: Double

  /// The breakdown as indented text, one part per line.
  public var description: String {
    func format(_ value: Double) -> String { String(format: "%.4f", value) }
    var lines = ["score \(format(score))"]
    lines.append("  text (BM25F, k1 \(format(k1))) \(format(textScore))")
    for term in terms {
      var form = term.matchedForm == term.term ? "" : " as \"\(term.matchedForm)\""
      if let whole = term.splitFrom { form += " (split from \"\(whole)\")" }
      if term.penalty != 1 {
        let reason: String
        switch term.origin {
        case .inflection: reason = "plural or singular form"
        case .joined: reason = "words typed apart, joined"
        case .completion where term.typos == 0: reason = "completion"
        default: reason = term.typos == 1 ? "1 typo" : "\(term.typos) typos"
        }
        form += " (\(reason), penalty \(format(term.penalty)))"
      }
      lines.append(
        "    \"\(term.term)\"\(form): idf \(format(term.idf)) · saturation of x \(format(term.weightedFrequency)) = \(format(term.score))"
      )
      for field in term.fields {
        lines.append(
          "      \(field.field.rawValue): tf \(field.termFrequency), length \(field.fieldLength) (average \(format(field.averageFieldLength))), weight \(format(field.weight)) → \(format(field.contribution))"
        )
      }
    }
    lines.append("  static factor \(format(staticFactor))")
    lines.append(
      "    popularity: \(popularity.count) / (\(popularity.count) + pivot \(format(popularity.pivot))) = \(format(popularity.signal)), weight \(format(popularity.weight))"
    )
    let age = recency.ageSeconds.map { format($0 / 86_400) + " days" } ?? "no date"
    lines.append(
      "    recency: age \(age), decay \(format(recency.signal)), weight \(format(recency.weight))")
    lines.append(
      "  match quality \(format(qualityFactor))\(isReranked ? "" : " (outside the re-ranking window)")"
    )
    lines.append(
      "    exact match: \(isExactMatch ? "yes" : "no"), adjacent pairs: \(format(adjacency))")
    lines.append("  typo penalty \(format(typoPenalty))")
    return lines.joined(separator: "\n")
  }
}
