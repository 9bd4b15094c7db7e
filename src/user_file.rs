//! Reading a file the user names on the command line (a progress file, a policy register):
//! only a regular file of a sane size, whatever the path turns out to be.
//!
//! One rule for every such read, so that no entry point can be pointed at `/dev/zero` (which
//! never ends), a FIFO (whose open blocks until a writer comes) or a folder. The size is
//! checked before reading and the read itself is bounded, in case the file grows between.

use std::fs;
use std::io::{self, Read};
use std::os::unix::fs::OpenOptionsExt;
use std::path::Path;

/// Why a path was not read. [`FileRefusal::line`] says it in words, without the path.
#[derive(Debug)]
pub enum FileRefusal {
    /// A folder.
    Folder,
    /// A device, a FIFO, a socket: anything but a regular file.
    NotRegular,
    /// Bigger than the limit (`bytes` as seen, `max_bytes` allowed).
    TooBig { bytes: u64, max_bytes: u64 },
    /// It could not be inspected or opened (permissions, a path through a file...).
    Io(io::Error),
}

impl FileRefusal {
    /// What was wrong, as the middle of a one-line message: "is a folder", "is 5 bytes...".
    pub fn line(&self) -> String {
        match self {
            FileRefusal::Folder => "is a folder".to_string(),
            FileRefusal::NotRegular => "is not a regular file".to_string(),
            FileRefusal::TooBig { bytes, max_bytes } => {
                format!("is {bytes} bytes or more, above the {max_bytes} bytes allowed")
            }
            FileRefusal::Io(err) => format!("cannot be read: {err}"),
        }
    }
}

/// What is at `path` (symbolic links followed): `None` when nothing is there, else a
/// regular file of at most `max_bytes`, or the reason it is not one.
pub fn inspect(path: &Path, max_bytes: u64) -> Result<Option<fs::Metadata>, FileRefusal> {
    let metadata = match fs::metadata(path) {
        Ok(metadata) => metadata,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(FileRefusal::Io(err)),
    };
    judge(&metadata, max_bytes)?;
    Ok(Some(metadata))
}

fn judge(metadata: &fs::Metadata, max_bytes: u64) -> Result<(), FileRefusal> {
    if metadata.is_dir() {
        return Err(FileRefusal::Folder);
    }
    if !metadata.is_file() {
        return Err(FileRefusal::NotRegular);
    }
    if metadata.len() > max_bytes {
        return Err(FileRefusal::TooBig {
            bytes: metadata.len(),
            max_bytes,
        });
    }
    Ok(())
}

/// The bytes of the regular file at `path` (at most `max_bytes`), `None` when nothing is there.
pub fn read(path: &Path, max_bytes: u64) -> Result<Option<Vec<u8>>, FileRefusal> {
    if inspect(path, max_bytes)?.is_none() {
        return Ok(None);
    }
    // Non-blocking: if a FIFO was put in the file's place since `inspect`, the open returns
    // at once instead of waiting for a writer; the second look below then refuses it.
    let file = match fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY)
        .open(path)
    {
        Ok(file) => file,
        Err(err) if err.kind() == io::ErrorKind::NotFound => return Ok(None),
        Err(err) => return Err(FileRefusal::Io(err)),
    };
    judge(&file.metadata().map_err(FileRefusal::Io)?, max_bytes)?;
    let mut bytes = Vec::new();
    file.take(max_bytes + 1)
        .read_to_end(&mut bytes)
        .map_err(FileRefusal::Io)?;
    if bytes.len() as u64 > max_bytes {
        return Err(FileRefusal::TooBig {
            bytes: bytes.len() as u64,
            max_bytes,
        });
    }
    Ok(Some(bytes))
}

/// Makes a FIFO at `path`, for the tests of every reader that must refuse one.
#[cfg(test)]
pub(crate) fn make_fifo(path: &Path) {
    let c_path = std::ffi::CString::new(path.as_os_str().as_encoded_bytes()).expect("path");
    // SAFETY: mkfifo reads the path it is given.
    assert_eq!(unsafe { libc::mkfifo(c_path.as_ptr(), 0o600) }, 0, "mkfifo");
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_a_regular_file_of_sane_size_is_read() {
        let dir = tempfile::tempdir().expect("temp dir");
        let fifo = dir.path().join("fifo");
        make_fifo(&fifo);
        // A FIFO with no writer: a plain open would block this test forever.
        assert!(matches!(read(&fifo, 100), Err(FileRefusal::NotRegular)));
        assert!(matches!(
            read(Path::new("/dev/zero"), 100),
            Err(FileRefusal::NotRegular)
        ));
        assert!(matches!(
            read(Path::new("/dev/null"), 100),
            Err(FileRefusal::NotRegular)
        ));
        assert!(matches!(read(dir.path(), 100), Err(FileRefusal::Folder)));
        let big = dir.path().join("big");
        fs::write(&big, [b'x'; 101]).expect("write");
        assert!(matches!(read(&big, 100), Err(FileRefusal::TooBig { bytes: 101, .. })));
        let small = dir.path().join("small");
        fs::write(&small, b"ok").expect("write");
        assert_eq!(read(&small, 100).expect("read"), Some(b"ok".to_vec()));
        let link = dir.path().join("link");
        std::os::unix::fs::symlink(&small, &link).expect("symlink");
        assert_eq!(read(&link, 100).expect("read through the link"), Some(b"ok".to_vec()));
        assert!(read(&dir.path().join("missing"), 100).expect("nothing").is_none());
        assert!(!FileRefusal::TooBig { bytes: 1, max_bytes: 0 }.line().contains('\n'));
    }
}
