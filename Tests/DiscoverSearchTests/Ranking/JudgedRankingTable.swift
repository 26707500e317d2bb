import DiscoverSearch

/// A query of the judged table and the grades of the videos judged for it.
struct JudgedQuery: Sendable {
  let text: String
  let tab: SearchTab
  /// Video id to grade: 2, the title is about the query; 1, relevant, but only the
  /// description or hashtags show it; 0, not relevant. Videos not listed count as 0.
  let grades: [String: Int]
}

/// Hand-judged first pages of the Videos tab on the real corpus
/// (`corpus/youtube_trending.jsonl`), for ``JudgedRankingEvaluation``.
///
/// Twenty-five queries typical of a short-video search box: how-to phrases, common words,
/// two-word topics, creator names, emoji, hashtag-like words and non-English queries. Each
/// query's judged videos are the union of the first 10 results of every setting of
/// ``JudgedRankingSetting/grid`` and ``JudgedRankingSetting/edgeProbes`` and the first 20
/// under the defaults, judged by reading the title, description and hashtags without
/// knowing which setting returned them. Queries with one meaning and many title matches
/// (`official trailer`, `nfl highlights`, `markiplier`) score 1 under every setting: they
/// guard against a change that breaks the easy cases.
///
/// When a ranking change brings up videos not judged here, they count as 0: judge them
/// (the pool is written by ``JudgedRankingTests/writeThePool()``) and add them.
enum JudgedRankingTable {
  static let queries: [JudgedQuery] = [
    // How-to videos that make something (title 2 when it says so; "How to Ruin Geometry Dash" is 0).
    JudgedQuery(
      text: "how to make", tab: .videos,
      grades: [
        "5TlxFXFi8UU": 0, "9VdTjNdZw0s": 1, "AmZleTKYYQI": 2, "JPcLcSbYL94": 2, "PjSUCjzC9TU": 1,
        "SWvDAbg000A": 0, "SgiW_1Ry2dY": 2, "cIAoz2ebBoU": 0, "mtTQAizKNWE": 1, "mwTcLVHutGw": 1,
        "nsnXo3tkj7w": 1, "sexYJ-J-AVo": 1, "uMOt1OshOJ8": 2, "yVBQe5mp7j0": 0, "ye5lO6Qope8": 0,
        "ytx_616d937aefdadaee": 0, "ytx_6a5f5677ce6e51fd": 2, "ytx_9158354969d23f07": 0,
        "ytx_acdc7fc0eb417b41": 1, "ytx_f7dd07b82a9c7843": 2,
      ]),
    JudgedQuery(
      text: "diy", tab: .videos,
      grades: [
        "0dOs5c2KNuQ": 2, "4uadU5WiOVo": 2, "83aqTTzSIgU": 1, "9VdTjNdZw0s": 1, "AmZleTKYYQI": 2,
        "ArQi2r4zIIo": 2, "DK90iUa64pA": 2, "DrPIGUu-ejs": 1, "FoMwNTBu5LQ": 2, "KHbPL6VBk9E": 1,
        "KjrVXDKsu-Y": 2, "QAV1WIrWy8w": 2, "U8BI9JLuLAg": 1, "X5w_YT0tOy4": 1, "cI_JgO1kGY0": 1,
        "d84quokryBY": 2, "hw6cy0iAFCc": 1, "ienN28M-KAg": 2, "jn_fpw-uR5Y": 1, "sjyM1Rpe7ZE": 1,
        "ytx_92ea7ac77ef525e0": 1, "ytx_acdc7fc0eb417b41": 1, "ytx_f8175026936f76d9": 1,
      ]),
    JudgedQuery(
      text: "makeup tutorial", tab: .videos,
      grades: [
        "0dOs5c2KNuQ": 0, "4uadU5WiOVo": 0, "GpQhFtH4lFM": 2, "JCMAw5GUN8w": 1, "MYNl2Y5AV3g": 2,
        "Sqsvk1qvrKM": 2, "XWlLlJ-r0No": 0, "bJ_8Uf3zo_o": 2, "dz9e3fJ4SuQ": 0, "qcwN9fNw7N4": 2,
        "sjyM1Rpe7ZE": 1,
      ]),
    JudgedQuery(
      text: "recipe", tab: .videos,
      grades: [
        "-EPFy-WXVCI": 0, "1qpVkh61meM": 2, "2uamBohxFFo": 0, "5bevi_0v6wU": 1, "GQetIIHYEnM": 0,
        "GTnMIACX6TM": 0, "LtO_uWwTFog": 2, "Q3w7Fz6KFa8": 1, "QvAKa22Ire4": 1, "X2zqiX6yL3I": 0,
        "amZ3fANPGIE": 0, "e9HkJ37URhA": 2, "fRyaEKJbkh8": 2, "iyOQRhBmn9Y": 2, "plYxeqw0P0s": 2,
        "quxmqtLbRjY": 2, "rp-TqMxdfMY": 1, "ytx_81f86edd9701bfb5": 2, "ytx_9ad297bd3bf9ce67": 1,
        "ytx_e0effddae8c6546d": 2, "ytx_f7dd07b82a9c7843": 2,
      ]),
    // Hacks and tricks; title in any language ("ЛАЙФХАКОВ", "TRUCOS").
    JudgedQuery(
      text: "life hacks", tab: .videos,
      grades: [
        "0dOs5c2KNuQ": 0, "4uadU5WiOVo": 0, "5Y4o-zth920": 0, "7gYvJMQ_uL0": 0, "9VdTjNdZw0s": 2,
        "dz9e3fJ4SuQ": 1, "fsj8ohlg0Is": 2, "jn_fpw-uR5Y": 2, "mc0gmxlw1nU": 2, "mtTQAizKNWE": 2,
        "qLTDtbYmdWM": 0, "uMOt1OshOJ8": 1, "ut9oH1bcln4": 2,
      ]),
    JudgedQuery(
      text: "halloween", tab: .videos,
      grades: [
        "6KzSzYC0rTo": 2, "8qF4lnbkAos": 2, "BBWL2uVqcW4": 2, "DDXY81L6PbI": 1, "FoMwNTBu5LQ": 2,
        "ICcAOPz-Rr8": 2, "MYNl2Y5AV3g": 2, "OqHfPvYkf9A": 2, "QccBAHil6SI": 2, "Sqsvk1qvrKM": 2,
        "UzpJCgxRcOQ": 2, "f3-O8M9LVAI": 2, "g909vB-BSXo": 1, "mwsJDfiOJdk": 2, "nsnXo3tkj7w": 1,
        "pm_G1sXjUIA": 2, "pyi3o5MURQ0": 1, "r_Za4fNsRV4": 2, "vEoHRjvXKso": 2, "ylgX5IC8KpU": 2,
      ]),
    JudgedQuery(
      text: "challenge", tab: .videos,
      grades: [
        "7RIvq98nXvc": 0, "Demdq-uKmSI": 0, "Gz3yak1cl-8": 2, "HZRMonTRP30": 1, "I8NmQiO7V5Y": 0,
        "JObxd5s-uqQ": 2, "Rky837f2iAY": 2, "dYzCSRlwuBQ": 2, "f3-O8M9LVAI": 2, "kMFY7aJ1tvk": 1,
        "mwTcLVHutGw": 2, "ob5nKYk30UI": 0, "wxmYUyLS47w": 2, "ytx_334c46f7c66ca37f": 0,
        "ytx_3e76b946a65187c3": 2, "ytx_52071e2f284d817d": 2, "ytx_6b955490432b554d": 2,
        "ytx_6e218d2cf6b6d3d0": 1, "ytx_d11bae49449ca3ab": 0, "ytx_d7d9222d3d8d4e2e": 2,
        "ytx_fa5b6d9f7fcda565": 2,
      ]),
    JudgedQuery(
      text: "prank", tab: .videos,
      grades: [
        "-_FuXbJncIk": 0, "36gdgZ163YM": 0, "85j1KdmvD0w": 2, "96NNgEQsbQk": 2, "9tgCo1LUMMI": 1,
        "I8NmQiO7V5Y": 2, "O9lzQDRt3HY": 0, "Q9CF5Yr-oFQ": 2, "Q_wVrsX7aqE": 1, "SPjMlrDAys4": 0,
        "Yrfi6kciDxs": 1, "bWCUEAH44W4": 2, "kiEhqZpRrnc": 2, "kiogQVHFLU0": 0, "m1_ufeacMOQ": 1,
        "rJ9IvNP_Lfg": 2, "rhhgi4iuU18": 0, "ytx_318880a6f7ea30b9": 0, "ytx_45891d7144fb11a7": 2,
        "ytx_654053200c0fe2eb": 2,
      ]),
    // Cats; titles in Japanese (猫) and Korean (고양이) count; "Slime bị cắt" (Vietnamese "cut") is 0.
    JudgedQuery(
      text: "cat", tab: .videos,
      grades: [
        "5bWrvfJfICY": 0, "7Pk6eAjmGhk": 0, "Bd8etSI68AE": 0, "CeZCzj7YLrQ": 0, "ChCxsAkmrxA": 1,
        "DKCXwg1yKw0": 2, "DO_iGu_U9xo": 0, "G4oDm9TvFVs": 0, "LzeUBByxQKo": 0, "Oc91iOxcB3c": 2,
        "Srz9DlTsYxk": 0, "YzKbTKwxPZs": 2, "_cPp2PBC9Tc": 2, "a7J1VXst2Zw": 0, "dBRFH7MgWis": 0,
        "h2DboKOvWIc": 0, "ob5nKYk30UI": 2, "otkBvG7XXCk": 2, "qRNnaIxO9PM": 0, "wVuny-hjOq4": 2,
      ]),
    JudgedQuery(
      text: "music video", tab: .videos,
      grades: [
        "FJWLj1-kGC0": 2, "InQH2BTiohs": 0, "PAKZveTVsSs": 2, "Py9S2bD0RZQ": 2, "QiYOkmrI1jg": 2,
        "TU1HQnU_9ME": 2, "WP7duqy60h8": 1, "WXdl3mpCbz4": 2, "XbGchfT3yMs": 2, "YyWru2XOiK0": 2,
        "ZAfAud_M_mg": 1, "ZaK9Wi5ho0o": 2, "_QgjyAm5uxo": 1, "bB3-CUMERIU": 2, "bmTK17uhmXA": 2,
        "ekr2nIex040": 2, "fmC6b6_ovZY": 2, "iSgUMPHQEWw": 2, "rGqEuk8Om-4": 2, "uLK2r3sG4lE": 2,
        "yXRlrix-pPk": 2, "ytx_47fb2ea182b8c85f": 2,
      ]),
    JudgedQuery(
      text: "official trailer", tab: .videos,
      grades: [
        "-5xzjw_0d_0": 2, "1pHDWnXmK7Y": 2, "6ajhEq4HqHo": 2, "6d7yU379Ur0": 2, "9zJK2qBcSYs": 2,
        "CLJDR-vFUdY": 2, "FdV-Cs5o8mc": 2, "MD7v0-igVIM": 2, "VllcgXSIJkE": 2, "dolxUIZzb3w": 2,
        "eknj5_0tF2s": 2, "f19gfOMZTtg": 2, "frYVyUDIwiE": 2, "kAw4PH2IQgo": 2, "n17AZkUXy58": 2,
        "ytx_3481f46cb425970a": 2, "ytx_3537f765590348f3": 2, "ytx_51d945a8e34f266b": 2,
        "ytx_bd337b3e07cfc505": 2, "ytx_ef024273801104e9": 2,
      ]),
    JudgedQuery(
      text: "nfl highlights", tab: .videos,
      grades: [
        "9jOzY38Wq3s": 2, "AXTjj4Xuy_I": 2, "D3xdlU0_Om8": 2, "H3IsJ2qHfGQ": 2, "KUg8SGqwOuo": 2,
        "OiMiG-VVmPM": 2, "QlPsuIkg6k0": 2, "g2ObHd6dk7Q": 2, "pF2H49iSZGM": 2, "rv1MzhOMrb8": 2,
        "tZm9eo8Nkp0": 2, "wAa9tGUdTM4": 2, "ytx_66c8c0e27093eee5": 2, "ytx_81e8e4e2676a5d57": 2,
        "ytx_81fbdd2a4498f494": 2, "ytx_89a0649c7e141f69": 2, "ytx_be75797b8b11ec8d": 2,
        "ytx_d70fa719176de84d": 2, "ytx_ecbd9b298fb8d46b": 2, "zw20QvpQrNY": 2,
      ]),
    JudgedQuery(
      text: "dance challenge", tab: .videos,
      grades: [
        "1-D2dEw2ihw": 0, "9-ACArp0ji8": 0, "EMTIb0eD2vc": 0, "HZRMonTRP30": 2, "Qg1FcfQv-WI": 0,
        "gnXf90Tt0Tc": 0, "iI3pMbhnBDE": 0, "ylgX5IC8KpU": 0,
      ]),
    JudgedQuery(
      text: "cricket highlights", tab: .videos,
      grades: [
        "31R0U7a3IGk": 0, "7_w0-bouKj4": 2, "EkVBsh1rAPE": 2, "JjbEgQ4xwps": 1, "vI7Opkz_Yrc": 2,
        "wKHrcZLApxY": 2, "ytx_0b722688dd8a2663": 1, "ytx_106c10533f143046": 0,
        "ytx_270b7f61e6405c1f": 1, "ytx_2c11cecfa3567394": 1, "ytx_2f47dcc6ee3e0728": 0,
        "ytx_594e316b34657712": 2, "ytx_6415bff557ae1d7d": 0, "ytx_680a3481a7f4f839": 2,
        "ytx_73e0a65b5e505038": 0, "ytx_90a3264c96ba2bf9": 2, "ytx_b5e2b600faff5484": 0,
        "ytx_e05c2f0922f7631a": 2, "ytx_e9138d36c7c66f2f": 0, "ytx_ea86772a9eaa0d7b": 0,
      ]),
    JudgedQuery(
      text: "mrbeast", tab: .videos,
      grades: [
        "36gdgZ163YM": 0, "5bevi_0v6wU": 0, "Gz3yak1cl-8": 2, "Kt2HvqRruHQ": 2, "ULLklTJCels": 0,
        "Xj0Jtjg3lHQ": 2, "bn0Kh9c4Zv4": 2, "c70s8ux50lQ": 2, "fuchP1pVgD8": 0, "jxQi7525h4o": 0,
        "mxVP7nNzzBo": 0, "snX5YyflrGw": 2, "ye5lO6Qope8": 0, "ytx_40a5e448695f7121": 2,
        "ytx_6534df1dbbad134e": 2, "ytx_e84ba6183709ec01": 0, "ytx_f4c85add2cddcafc": 0,
      ]),
    JudgedQuery(
      text: "markiplier", tab: .videos,
      grades: [
        "3FBIDkyT2P4": 2, "3LELeDmLalo": 2, "bHu7ytQsC8Y": 2, "c8hVwcg41e8": 2, "jz8jkwWrbKs": 2,
      ]),
    // The group; a member's solo video whose title does not name BTS is 1.
    JudgedQuery(
      text: "bts", tab: .videos,
      grades: [
        "ArHGiOxYwHM": 1, "Cvb76hBX_Oc": 1, "OeuVHzqu6rU": 2, "PhKKrR5WQe8": 2, "TU1HQnU_9ME": 0,
        "TxIxrsIWKDA": 2, "U2tUY95IzLc": 2, "UyQ9KRvNSjA": 2, "WP7duqy60h8": 2, "_twP0fa7b5g": 2,
        "adnp5PgJfDg": 2, "hHyVuicNF-g": 2, "kEW1o0GIIZk": 2, "nnr56z1C81U": 2, "robSTkzb_hE": 2,
        "uWo9JIf2mW0": 2, "ytx_1bfc85853e5a13bc": 0, "ytx_716ef899bd28adc8": 0,
        "ytx_7e8aafa828a93df2": 1, "ytx_f4480a19b1bf57fc": 1,
      ]),
    // 2: 🔥 in the title; 1: in the description about the video, or "fire" in the title; 0: 🔥 only as a link bullet.
    JudgedQuery(
      text: "🔥", tab: .videos,
      grades: [
        "2uamBohxFFo": 1, "IM3kB4qsH3o": 0, "Syz-bdm5oEE": 1, "ULLklTJCels": 0, "ZC-egC-ElAU": 1,
        "cadFt8Tyc0w": 2, "nOsH8D_-wE8": 2, "tVMd_eJLYmU": 0, "vE-4_m31wlM": 1, "w4GReha-6DI": 0,
        "wTR1xSJuU7M": 2, "ytx_106c10533f143046": 2, "ytx_1211c16bd319cb93": 0,
        "ytx_1fb3985e4ddc936c": 2, "ytx_322c8a9baa27b534": 2, "ytx_6b955490432b554d": 2,
        "ytx_7381f0e3413dc692": 1, "ytx_73e0a65b5e505038": 2, "ytx_ad39e9521935ee62": 1,
        "ytx_b7ebbae05c429086": 1, "ytx_bad4393c69119407": 0, "ytx_ea86772a9eaa0d7b": 2,
        "zH9uO_zFzEU": 2,
      ]),
    // 2: 😂 in the title; 1: in the description about the video.
    JudgedQuery(
      text: "😂", tab: .videos,
      grades: [
        "0nt_Py5TwZE": 1, "8fhAzay_vTU": 1, "9-ACArp0ji8": 1, "FuX_H1h-4qY": 2, "LKaIksDvaXM": 2,
        "NqNcrdVh6ZY": 2, "YMxT13ms7XE": 2, "fsj8ohlg0Is": 2, "kkiGTPVOWOE": 2, "nyi4ioif6sQ": 1,
        "pLDuAhiSZ6Y": 2, "tUJz16n8O2I": 2, "udTuDdMbrfo": 1, "ytx_1fb3985e4ddc936c": 2,
        "ytx_2436045a743aed90": 2, "ytx_3e55545af4ee6fd6": 1, "ytx_825fff2cc2fc2ed3": 2,
        "ytx_909d8237f19bcd31": 2, "ytx_e8c3a381c10ba949": 1, "ytx_fc572568797f3f31": 1,
      ]),
    // 2: 🎃 in the title; 1: in the description of a Halloween video.
    JudgedQuery(
      text: "🎃", tab: .videos,
      grades: [
        "7hlGfeHOYLg": 2, "82zlvLZX71c": 1, "C53XdyyQZW4": 2, "FuX_H1h-4qY": 0, "HRDXuz2pGqE": 2,
        "JYv5L2ryQMw": 2, "SUvbRpZZDq4": 2, "Sa4YEir4Xuo": 2, "UVfpxntvANA": 2, "VwCq09PzYRY": 1,
        "_VwVGwNA3Xs": 1, "b5fFZwpxfXI": 2, "c70s8ux50lQ": 2, "cR5m2PKmGEU": 2, "i_kYN7f8qUg": 0,
        "pBtE8F6I_as": 2, "pm_G1sXjUIA": 1, "qN-zGNdaP08": 2, "rhhgi4iuU18": 2, "yeiZTcT_xbQ": 2,
      ]),
    JudgedQuery(
      text: "asmr", tab: .videos,
      grades: [
        "1OVUpB3zttA": 2, "5bevi_0v6wU": 0, "8IKYgiIQ9AQ": 2, "ARDE2QcZFVw": 2, "A_r7dkL_6dQ": 2,
        "BGvY2FbwoJo": 2, "C53XdyyQZW4": 2, "DDV-DtEKASw": 2, "GTnMIACX6TM": 0, "GZoW9yBR-g0": 1,
        "NaaOiiXOc88": 2, "R5aVrU69pd0": 1, "UVfpxntvANA": 2, "ZNUw6n-76Qw": 2, "_qkhlLqqX2I": 1,
        "_vDHvPd8zaY": 2, "b5fFZwpxfXI": 2, "ks2EjbDewyc": 2, "l_7bhMnQKxc": 2, "wbt0rT4QGYw": 1,
      ]),
    // Vlogs; 1 when only the hashtags or the channel say vlog.
    JudgedQuery(
      text: "vlog", tab: .videos,
      grades: [
        "26S0i8Tai5I": 2, "2vWp2spX4FU": 1, "3sl374HnWWw": 2, "5bWrvfJfICY": 1, "8qRm2McjE9k": 2,
        "9GpC3pZQ8cY": 1, "BabKaB0rWc4": 2, "Iiukc5Z5kA0": 1, "Rs8bNwfVyM0": 1, "Wr9wqZj6Dkc": 1,
        "YGiVDmD-bfI": 0, "c8hVwcg41e8": 1, "dytERBGu5QY": 0, "mn75mKUExGg": 2, "xk5c93yilio": 1,
        "ytx_1211c16bd319cb93": 2, "ytx_318880a6f7ea30b9": 1, "ytx_4be84951100d22a9": 2,
        "ytx_622b45f5c371b4c9": 1, "ytx_716ef899bd28adc8": 1, "ytx_98d6c527e0623af9": 2,
        "ytx_9f973cfdffa3f424": 2, "ytx_ad4991219464f7d3": 1, "ytx_c3bec24b60133335": 1,
        "ytx_c9faf244a95a2abb": 2, "ytx_eb9b3d2ebefbb500": 1, "ytx_fa5b6d9f7fcda565": 0,
      ]),
    // Mukbang (eating shows).
    JudgedQuery(
      text: "먹방", tab: .videos,
      grades: [
        "2xRJUWxhkb4": 1, "6vOHPa4zqy0": 2, "GKZzGbJLRks": 2, "GTnMIACX6TM": 0, "IFZXij-b_cY": 2,
        "OfiCZOEhCX8": 2, "RbzGsrZW7RU": 2, "TqTEHkDDFPA": 2, "VcXVjKGGDwg": 0, "WwzWU3lGBXs": 0,
        "_3gT9QS7hcI": 2, "b8-Z40cScOk": 1, "bKYAEzXFQJ8": 2, "bnEWobzzbNk": 0, "cJL5_-wEQVs": 1,
        "dt7WXlAEzGo": 0, "k5Z6utUysZY": 2, "kNyRXlmDaoI": 2, "pXU8kY2HjMc": 1, "zH9uO_zFzEU": 2,
      ]),
    // Game let's-plays: 2 when the title says 実況; most let's-plays are 1.
    JudgedQuery(
      text: "ゲーム実況", tab: .videos,
      grades: [
        "21JIyvY8cY4": 0, "ADE3VL2NBMM": 1, "BbO00FHHF8E": 2, "BooYpLbzN0A": 1, "WLh5VhBG6Xg": 1,
        "ZKgQj38y5-A": 1, "aGYsV1ph3m8": 0, "ag0zOJCMnBY": 1, "eGRtf66g6rk": 1, "lIwm2L2bLNM": 1,
        "lh9b4LacRq4": 1, "n12Qn-kaSbo": 0, "nyBwTBDJ3jE": 1, "oTd8bq59VBI": 2, "skfS9KiX1so": 1,
        "t-QliV0WRWU": 2, "w-KSqQYo7Oc": 0, "x2MEOdYiBmk": 1, "xic7-NcN64U": 1, "yVbt51hnK4s": 1,
      ]),
    // Goals: 2 when the title is about the goals ("GOLES", "Gols"), 1 for match summaries.
    JudgedQuery(
      text: "gol", tab: .videos,
      grades: [
        "2EyTtcR5hHs": 0, "5ObJt_71AYc": 1, "6BsvOCVGaOg": 0, "7avZPwmCkQ4": 2, "8fFikgJSIEk": 0,
        "C3wPtKNbAOA": 1, "FQTjjeGqDpA": 1, "GvLK5irOcrQ": 2, "HosgJo6cwX0": 0, "JnEYOR_s578": 1,
        "SJfoPdeOPCQ": 1, "TDjN4W3yy1k": 1, "Vq74dyksjRU": 1, "qA5NO_NrZSE": 2, "tbyOJKXfQnI": 1,
        "w8K1KNDqHAA": 1, "ytx_056ede560c910ae2": 2, "ytx_3e77a120ad3ef3bf": 1,
        "ytx_a0b06675b775e98f": 1, "zg15uVWjuf4": 1,
      ]),
  ]
}
