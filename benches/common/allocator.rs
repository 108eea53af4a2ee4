//! The binary's allocator (`src/main.rs`), so that a bench timing library
//! calls in its own process measures what `asasked` runs. Included by each
//! such bench with `#[path = "common/allocator.rs"] mod allocator;`.

#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;
