// The Section 5 rules land here (one rule per file).
public enum GraphQLValidationModule {}
