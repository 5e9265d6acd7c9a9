//! The floor for reading speed: a bare `csv::ByteRecord` pass over a file,
//! counting records, as the csv crate's performance guide recommends
//! (flexible, one reused record). Used by `bench/run.py`.

use std::error::Error;

fn main() -> Result<(), Box<dyn Error>> {
    let path = std::env::args().nth(1).ok_or("usage: csv_pass FILE")?;
    let mut reader = csv::ReaderBuilder::new()
        .flexible(true)
        .has_headers(false)
        .from_path(path)?;
    let mut record = csv::ByteRecord::new();
    let mut records = 0u64;
    let mut fields = 0u64;
    while reader.read_byte_record(&mut record)? {
        records += 1;
        fields += record.len() as u64;
    }
    println!("{records} records, {fields} fields");
    Ok(())
}
