-- social-gateway schema, part 7: profile text bounded in bytes, so the database allows what the
-- gateway allows.
--
-- The seeds count a display name or bio with Swift's String.count: user-visible characters
-- (grapheme clusters). The checks of 20250301000000 counted code points (char_length), so a
-- 280-character bio of emoji with skin tones (560 code points) was refused here although the
-- gateway accepts it. PostgreSQL cannot count grapheme clusters, and one cluster can hold any
-- number of code points (combining marks stack), so the gateway checks characters and also
-- UTF-8 bytes (32 per allowed character, UpdateProfile.maxBytesPerCharacter), and the database
-- checks that byte bound: it never refuses what the gateway accepts, and still bounds the row.
alter table public.profiles
  drop constraint profiles_display_name_len,
  drop constraint profiles_bio_len,
  drop constraint profiles_home_gym_len,
  drop constraint profiles_favorite_style_len,
  add constraint profiles_display_name_bytes   check (display_name is null or octet_length(display_name) <= 1600),
  add constraint profiles_bio_bytes            check (bio is null or octet_length(bio) <= 8960),
  add constraint profiles_home_gym_bytes       check (home_gym is null or octet_length(home_gym) <= 3200),
  add constraint profiles_favorite_style_bytes check (favorite_style is null or octet_length(favorite_style) <= 3200);
