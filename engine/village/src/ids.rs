//! The ids of `docs/rules/village.md` A (and of the log format): colours, cubes, action spaces, goods, craft
//! buildings, chronicle categories and customer tiles. Each is a closed enum, so an unknown id
//! can only enter through the notation, where serde rejects it (`unknown_id`, G.1.6).

use chronicle_game::id_table::IdTable;
use serde::{Deserialize, Serialize};

macro_rules! id_enum {
    ($(#[$m:meta])* $name:ident { $($variant:ident = $id:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum $name { $($variant),+ }

        impl $name {
            /// Every value, in the canonical order of `docs/rules/village.md`.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The stable id.
            pub const fn id(self) -> &'static str {
                match self { $($name::$variant => $id),+ }
            }

            /// Every id with its value, for the plain reader: found by its quoted text in one
            /// look-up, with no string taken ([`IdTable`]).
            pub const IDS: IdTable<$name, { (2 * [$($id),+].len()).next_power_of_two() }> =
                IdTable::new(&[$(($id, $name::$variant)),+]);

            /// The value of an id (one `match`).
            pub fn from_id(id: &str) -> Option<$name> {
                match id {
                    $($id => Some($name::$variant),)+
                    _ => None,
                }
            }

            /// The position in [`Self::ALL`].
            pub fn index(self) -> usize {
                self as usize
            }
        }

        impl std::fmt::Display for $name {
            fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str(self.id())
            }
        }
    };
}

id_enum! {
    /// A player colour (`docs/rules/village.md` A.1).
    Color { Red = "red", Yellow = "yellow", Blue = "blue", White = "white", Purple = "purple" }
}

id_enum! {
    /// A cube colour (`docs/rules/village.md` A.2), in the canonical order of the seeded generator.
    Cube { Orange = "orange", Green = "green", Brown = "brown", Pink = "pink", Black = "black" }
}

impl Cube {
    /// The four influence colours (`black` is the plague).
    pub const INFLUENCE: [Cube; 4] = [Cube::Orange, Cube::Green, Cube::Brown, Cube::Pink];

    pub fn is_influence(self) -> bool {
        self != Cube::Black
    }
}

id_enum! {
    /// An action space (`docs/rules/village.md` A.3), in the canonical order of the log.
    Space {
        Harvest = "harvest", Family = "family", Crafts = "crafts", Market = "market",
        Travel = "travel", Council = "council", Church = "church",
    }
}

id_enum! {
    /// A goods tile (`docs/rules/village.md` A.1).
    Good { Scroll = "scroll", Horse = "horse", Plough = "plough", Ox = "ox", Wagon = "wagon" }
}

id_enum! {
    /// A craft building (`docs/rules/village.md` A.5).
    Building {
        Wainwright = "wainwright", Stables = "stables", Office = "office", Blacksmith = "blacksmith",
        Mill = "mill",
    }
}

impl Building {
    /// Production time with a trained member (`docs/rules/village.md` A.5 column a); the mill's 2 time are
    /// part of its only price.
    pub const fn production_time(self) -> u32 {
        match self {
            Building::Wainwright | Building::Office | Building::Mill => 2,
            Building::Stables | Building::Blacksmith => 3,
        }
    }

    /// Training time fixed by the rulebook (`docs/rules/village.md` A.5, H.4): only the wainwright and the
    /// blacksmith; the stables and the office need component data.
    pub const fn known_training(self) -> Option<u32> {
        match self {
            Building::Wainwright => Some(2),
            Building::Blacksmith => Some(3),
            Building::Stables | Building::Office | Building::Mill => None,
        }
    }
}

id_enum! {
    /// A chronicle category (`docs/rules/village.md` A.10).
    Category { Farm = "farm", Crafts = "crafts", Council = "council", Travel = "travel", Church = "church" }
}

/// What a wanted item or a stock item can be: a good, grain or coins (`docs/log-format-village.md` "Actions").
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Item {
    Scroll,
    Horse,
    Plough,
    Ox,
    Wagon,
    Grain,
}

impl Item {
    pub fn good(self) -> Option<Good> {
        match self {
            Item::Scroll => Some(Good::Scroll),
            Item::Horse => Some(Good::Horse),
            Item::Plough => Some(Good::Plough),
            Item::Ox => Some(Good::Ox),
            Item::Wagon => Some(Good::Wagon),
            Item::Grain => None,
        }
    }

    pub fn id(self) -> &'static str {
        self.good().map_or("grain", Good::id)
    }
}

/// A customer tile `c01` … `c24` (`docs/rules/village.md` H.40). The number is 1..=24 by construction.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Customer(u8);

impl Customer {
    /// All 24 tiles in string (= numeric) order.
    pub fn all() -> impl Iterator<Item = Customer> {
        (1..=24).map(Customer)
    }

    pub fn from_id(id: &str) -> Option<Customer> {
        let n = id.strip_prefix('c')?;
        if n.len() != 2 || !n.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let n: u8 = n.parse().ok()?;
        (1..=24).contains(&n).then_some(Customer(n))
    }

    pub fn id(self) -> String {
        format!("c{:02}", self.0)
    }

    /// 0-based position in [`Customer::all`].
    pub fn index(self) -> usize {
        usize::from(self.0 - 1)
    }
}

impl std::fmt::Display for Customer {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "c{:02}", self.0)
    }
}

impl Serialize for Customer {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&self.id())
    }
}

impl<'de> Deserialize<'de> for Customer {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let s = String::deserialize(d)?;
        Customer::from_id(&s)
            .ok_or_else(|| serde::de::Error::custom(format!("unknown variant `{s}`: customer ids are `c01` … `c24`")))
    }
}

/// A count of cubes per colour, indexed in [`Cube::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Cubes(pub [u32; 5]);

impl Cubes {
    pub fn get(&self, c: Cube) -> u32 {
        self.0[c.index()]
    }

    pub fn add(&mut self, c: Cube, n: u32) {
        self.0[c.index()] = self.0[c.index()].saturating_add(n);
    }

    /// Removes `n` cubes of a colour; false (and nothing removed) when there are fewer.
    pub fn take(&mut self, c: Cube, n: u32) -> bool {
        let have = &mut self.0[c.index()];
        if *have < n {
            return false;
        }
        *have -= n;
        true
    }

    pub fn total(&self) -> u32 {
        self.0.iter().sum()
    }

    /// No cube of any colour (no sum: the board's seven spaces are asked after every step).
    pub fn is_empty(&self) -> bool {
        self.0 == [0; 5]
    }

    /// The colours present, in canonical order.
    pub fn colors(&self) -> impl Iterator<Item = Cube> + '_ {
        Cube::ALL.iter().copied().filter(|&c| self.get(c) > 0)
    }

    /// As a JSON-friendly map of the non-zero colours.
    pub fn to_map(&self) -> std::collections::BTreeMap<&'static str, u32> {
        self.colors().map(|c| (c.id(), self.get(c))).collect()
    }

    /// A multiset of cubes from a list.
    pub fn from_list(list: &[Cube]) -> Cubes {
        let mut c = Cubes::default();
        for &x in list {
            c.add(x, 1);
        }
        c
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `from_id` takes exactly the names serde's derived reading takes, which the plain
    /// reading of the logs relies on.
    #[test]
    fn from_id_reads_what_serde_reads() {
        fn same<T: for<'a> Deserialize<'a> + PartialEq + std::fmt::Debug + Copy>(
            all: &[T],
            from_id: fn(&str) -> Option<T>,
            id: fn(T) -> &'static str,
        ) {
            for &v in all {
                assert_eq!(from_id(id(v)), Some(v));
                assert_eq!(serde_json::from_value::<T>(serde_json::json!(id(v))).ok(), Some(v));
            }
            for bad in ["", "Orange", "GREEN", "harvest ", "crafts\0", "x"] {
                assert_eq!(from_id(bad), serde_json::from_value::<T>(serde_json::json!(bad)).ok(), "{bad}");
            }
        }
        same(Color::ALL, Color::from_id, Color::id);
        same(Cube::ALL, Cube::from_id, Cube::id);
        same(Space::ALL, Space::from_id, Space::id);
        same(Good::ALL, Good::from_id, Good::id);
        same(Building::ALL, Building::from_id, Building::id);
        same(Category::ALL, Category::from_id, Category::id);
    }

    /// `IDS`, the plain reader's tables, hold every id as serde's reading reads it.
    #[test]
    fn id_tables_read_what_serde_reads() {
        fn same<T: for<'a> Deserialize<'a> + PartialEq + std::fmt::Debug + Copy, const S: usize>(
            all: &[T],
            table: &IdTable<T, S>,
        ) {
            for (id, v) in table.ids() {
                assert_eq!(serde_json::from_value::<T>(serde_json::json!(id)).ok(), Some(v), "{id}");
            }
            assert_eq!(table.ids().count(), all.len());
        }
        same(Color::ALL, &Color::IDS);
        same(Cube::ALL, &Cube::IDS);
        same(Space::ALL, &Space::IDS);
        same(Good::ALL, &Good::IDS);
        same(Building::ALL, &Building::IDS);
        same(Category::ALL, &Category::IDS);
    }

    #[test]
    fn customer_ids_are_c01_to_c24() {
        assert_eq!(Customer::all().count(), 24);
        assert_eq!(Customer::from_id("c01").map(|c| c.id()), Some("c01".to_owned()));
        for bad in ["c00", "c25", "c1", "x01", "c+1", "c001", ""] {
            assert!(Customer::from_id(bad).is_none(), "{bad}");
        }
    }

    #[test]
    fn ids_round_trip() {
        for s in Space::ALL {
            assert_eq!(Space::from_id(s.id()), Some(*s));
        }
        assert_eq!(serde_json::to_string(&Building::Blacksmith).ok().as_deref(), Some("\"blacksmith\""));
    }
}
