import SocialDomain
// Placeholder: replaced by the Supabase store work (issue 6).
public enum SupabaseStoreModule {}
