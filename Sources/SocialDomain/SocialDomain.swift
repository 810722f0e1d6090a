// Placeholder: replaced by the domain work (issue 4).
public enum SocialDomainModule {}
