//! The names players use for Village's things, shared by the board view ([`crate::view`]) and
//! the entries in words ([`crate::sentence`]) so that a page and its sentences call a space, a
//! building or a customer the same: action spaces and buildings as the rulebook prints them
//! (`docs/rules/village.md` A.3, A.5), cubes and goods by colour and name (A.1, A.2), cities and
//! customers as the log's components name them (A.11 M.6, M.9: the format gives a customer tile
//! no name beyond its id, `c01` … `c24`, H.40, so that id is its name, with what it wants).

use chronicle_game::view::words;

use crate::components::Components;
use crate::game::Loc;
use crate::ids::{Building, Category, Cube, Cubes, Customer, Good, Item, Space};

/// An action space's printed name (A.3, D).
pub(crate) fn space_name(s: Space) -> &'static str {
    match s {
        Space::Harvest => "Grain harvest",
        Space::Family => "Family",
        Space::Crafts => "Crafts",
        Space::Market => "Market",
        Space::Travel => "Travel",
        Space::Council => "Council chamber",
        Space::Church => "Church",
    }
}

/// A craft building's name (A.5).
pub(crate) fn building_name(b: Building) -> &'static str {
    match b {
        Building::Wainwright => "Wainwright",
        Building::Stables => "Stables",
        Building::Office => "Office",
        Building::Blacksmith => "Blacksmith",
        Building::Mill => "Mill",
    }
}

/// What a building makes, in words (A.5): the stables one of two goods, the mill coins.
pub(crate) fn building_makes(b: Building) -> &'static str {
    match b {
        Building::Wainwright => "a wagon",
        Building::Stables => "a horse or an ox",
        Building::Office => "a scroll",
        Building::Blacksmith => "a plough",
        Building::Mill => "2 coins",
    }
}

/// A chronicle category as printed (A.10).
pub(crate) fn category_name(c: Category) -> &'static str {
    match c {
        Category::Farm => "Farm",
        Category::Crafts => "Crafts",
        Category::Council => "Council chamber",
        Category::Travel => "Travel",
        Category::Church => "Church",
    }
}

/// A cube's colour as players call it in lists of cubes: black cubes are the plague (A.2).
pub(crate) fn cube_word(c: Cube) -> &'static str {
    match c {
        Cube::Black => "plague",
        _ => c.id(),
    }
}

/// One good with its article (`"a plough"`, `"an ox"`).
pub(crate) fn a_good(g: Good) -> &'static str {
    match g {
        Good::Scroll => "a scroll",
        Good::Horse => "a horse",
        Good::Plough => "a plough",
        Good::Ox => "an ox",
        Good::Wagon => "a wagon",
    }
}

/// A good's plural, for counts (`"3 horses"`).
pub(crate) fn good_plural(g: Good) -> &'static str {
    match g {
        Good::Scroll => "scrolls",
        Good::Horse => "horses",
        Good::Plough => "ploughs",
        Good::Ox => "oxen",
        Good::Wagon => "wagons",
    }
}

/// A good's or grain's count in words (`"1 horse"`, `"2 oxen"`, `"3 grain"`).
pub(crate) fn item_words(item: Item, n: u32) -> String {
    match (item.good(), n) {
        (None, _) => format!("{n} grain"),
        (Some(g), 1) => a_good(g).to_owned(),
        (Some(g), _) => format!("{n} {}", good_plural(g)),
    }
}

/// Words joined as people list them: `"a"`, `"a and b"`, `"a, b and c"`.
pub(crate) fn and_list<S: AsRef<str>>(items: &[S]) -> String {
    match items {
        [] => String::new(),
        [one] => one.as_ref().to_owned(),
        [rest @ .., last] => {
            format!("{} and {}", rest.iter().map(AsRef::as_ref).collect::<Vec<_>>().join(", "), last.as_ref())
        }
    }
}

/// A name at the start of a label (`"market town"` → `"Market town"`).
pub(crate) fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    chars.next().map_or_else(String::new, |first| first.to_uppercase().chain(chars).collect())
}

/// A city by its id as the travel map declares it, in words (`mill_town` → `"Mill town"`);
/// the map names cities by id only.
pub(crate) fn city_name(id: &str) -> String {
    capitalized(&words(id))
}

/// The city at index `city` of the log's travel map (`"?"` without a map, never reached).
pub(crate) fn city_at(components: &Components, city: usize) -> String {
    components.travel.as_ref().and_then(|t| t.cities().get(city)).map_or_else(|| "?".to_owned(), |c| city_name(&c.id))
}

/// A customer tile by its name: the id the components give it (they declare no other name).
pub(crate) fn customer_name(c: Customer) -> String {
    format!("customer {c}")
}

/// What a customer wants and is worth, from the components (`"a horse and a plough, 6
/// points"`); `None` when the log's components lack the tile.
pub(crate) fn customer_wants(components: &Components, c: Customer) -> Option<String> {
    let d = components.customers.get(&c)?;
    let wants: Vec<String> = d.wants.iter().map(|&(item, n)| item_words(item, n)).collect();
    Some(format!("{}, {} points", and_list(&wants), d.points))
}

/// A customer with what it wants (`"customer c04 (a horse and a plough, 6 points)"`).
pub(crate) fn customer_phrase(components: &Components, c: Customer) -> String {
    match customer_wants(components, c) {
        Some(w) => format!("{} ({w})", customer_name(c)),
        None => customer_name(c),
    }
}

/// Cubes of a list as players count them: `"2 orange, pink and black"`, colours in the
/// canonical order (A.2) whatever the list's order.
pub(crate) fn cube_colours(list: &[Cube]) -> String {
    let cubes = Cubes::from_list(list);
    let parts: Vec<String> = cubes
        .colors()
        .map(|c| match cubes.get(c) {
            1 => c.id().to_owned(),
            n => format!("{n} {c}"),
        })
        .collect();
    if parts.is_empty() {
        "no cube".to_owned()
    } else {
        and_list(&parts)
    }
}

/// Cubes of a list as things paid or taken: `"a green cube"`, `"2 green cubes"`, `"an orange
/// and a pink cube"`.
pub(crate) fn cube_things(list: &[Cube]) -> String {
    let cubes = Cubes::from_list(list);
    let colours: Vec<Cube> = cubes.colors().collect();
    match colours.as_slice() {
        [] => "no cube".to_owned(),
        [c] if cubes.get(*c) == 1 => format!("{} {c} cube", article(c.id())),
        [c] => format!("{} {c} cubes", cubes.get(*c)),
        _ if colours.iter().all(|&c| cubes.get(c) == 1) => {
            let parts: Vec<String> = colours.iter().map(|&c| format!("{} {c}", article(c.id()))).collect();
            format!("{} cube", and_list(&parts))
        }
        _ => {
            let parts: Vec<String> = colours
                .iter()
                .map(|&c| match cubes.get(c) {
                    1 => format!("{} {c} cube", article(c.id())),
                    n => format!("{n} {c} cubes"),
                })
                .collect();
            and_list(&parts)
        }
    }
}

/// `"a"` or `"an"` before a word.
pub(crate) fn article(word: &str) -> &'static str {
    if word.starts_with(['a', 'e', 'i', 'o', 'u']) {
        "an"
    } else {
        "a"
    }
}

/// Where a member is, as players say it after "on", "at", "in" (`"at the Blacksmith"`, `"on
/// stage 2 of the Council chamber"`, `"in North"`).
pub(crate) fn place_phrase(components: &Components, loc: Loc) -> String {
    match loc {
        Loc::Reserve => "in the reserve".to_owned(),
        Loc::Farm => "on the farm".to_owned(),
        Loc::Bag => "in the black bag".to_owned(),
        Loc::Craft(b) => format!("at the {}", building_name(b)),
        Loc::Council(s) => format!("on stage {s} of the Council chamber"),
        Loc::City(c) => format!("in {}", city_at(components, c)),
        Loc::Church(s) => format!("on stage {s} of the church track"),
        Loc::Chronicle(c) => format!("in the village chronicle ({})", category_name(c).to_lowercase()),
        Loc::Grave => "in the cemetery".to_owned(),
        Loc::Removed => "out of the game".to_owned(),
        Loc::Beside => "beside Carla's board".to_owned(),
        Loc::ChurchBuilding => "on the church building".to_owned(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Lists and counts read as people say them.
    #[test]
    fn a2_lists_and_cubes_read_as_people_say_them() {
        assert_eq!(and_list(&["a", "b", "c"]), "a, b and c");
        assert_eq!(and_list(&["a"]), "a");
        assert_eq!(cube_colours(&[Cube::Pink, Cube::Orange, Cube::Orange, Cube::Black]), "2 orange, pink and black");
        assert_eq!(cube_things(&[Cube::Green]), "a green cube");
        assert_eq!(cube_things(&[Cube::Green, Cube::Green]), "2 green cubes");
        assert_eq!(cube_things(&[Cube::Pink, Cube::Orange]), "an orange and a pink cube");
        assert_eq!(cube_things(&[Cube::Pink, Cube::Orange, Cube::Orange]), "2 orange cubes and a pink cube");
        assert_eq!(item_words(Item::Ox, 2), "2 oxen");
        assert_eq!(city_name("mill_town"), "Mill town");
    }
}
