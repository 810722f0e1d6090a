import SocialDomain
// Placeholder: replaced by the embedded store work (issue 4).
public enum EmbeddedStoreModule {}
