//! The commands of `chronicle` but `serve`: each returns a typed outcome ([`Done`]) or a
//! message for people, which [`crate::cli`] maps to an exit code and prints.

pub mod analyse;
pub mod export;
pub mod import;
pub mod players;
pub mod replay;
pub mod report;
pub mod simulate;
pub mod tokens;

/// How a command that ran ended. Commands return it; only [`crate::cli`] turns it into an
/// exit code (an `Err` is a usage or IO error, exit code 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Done {
    /// Everything asked for was done: every log valid, stored or a duplicate (exit code 0).
    Success,
    /// The command ran, but some input was invalid or could not be stored (exit code 1).
    Rejected,
}

/// Why a command stopped before doing what it was asked (exit code 2): the kind of trouble,
/// and a message for people (printed as it is).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CommandError {
    /// The arguments do not fit: an unknown game or identity, a player count out of range, a
    /// bad duration, an option that does not apply.
    Usage(String),
    /// A file, standard input or standard output could not be read or written.
    Io(String),
    /// The game store could not be opened, or refused the work (or what it was asked for is
    /// not there: a token, a merged identity).
    Store(String),
    /// The server could not start, or stopped with an error.
    Server(String),
}

impl std::fmt::Display for CommandError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            CommandError::Usage(m) | CommandError::Io(m) | CommandError::Store(m) | CommandError::Server(m) => {
                f.write_str(m)
            }
        }
    }
}

impl std::error::Error for CommandError {}

impl From<std::io::Error> for CommandError {
    fn from(e: std::io::Error) -> CommandError {
        CommandError::Io(e.to_string())
    }
}

/// What a command returns.
pub type Outcome = Result<Done, CommandError>;

/// The store a command works on.
#[derive(clap::Args, Debug, Clone)]
pub struct DatabaseArg {
    /// `postgres://…` or `sqlite://PATH`; default: env DATABASE_URL, else
    /// sqlite://./data/chronicle.db.
    #[arg(long, value_name = "URL")]
    pub database_url: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A command's error says what went wrong in words, whatever its kind: the kind is for
    /// callers (exit code 2 either way), the message for people.
    #[test]
    fn a_command_error_prints_its_message_and_keeps_its_kind() {
        let io = CommandError::from(std::io::Error::other("disk full"));
        assert_eq!((io.to_string(), matches!(io, CommandError::Io(_))), ("disk full".to_owned(), true));
        let usage = crate::commands::tokens::parse_duration("9x").map_err(CommandError::Usage);
        assert!(matches!(usage, Err(CommandError::Usage(ref m)) if m.contains("the unit is s, m, h or d")));
    }
}
