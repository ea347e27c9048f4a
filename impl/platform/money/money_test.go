package money

import (
	"errors"
	"math/big"
	"testing"
)

func TestExponent(t *testing.T) {
	for code, want := range map[string]int{"BRL": 2, "USD": 2, "EUR": 2, "JPY": 0, "KWD": 3, "CLF": 4} {
		got, ok := Exponent(code)
		if !ok || got != want {
			t.Errorf("Exponent(%s) = %d, %v; want %d", code, got, ok, want)
		}
	}
	for _, code := range []string{"", "brl", "BR", "ZZZ", "XAU", "BRLL"} {
		if _, ok := Exponent(code); ok {
			t.Errorf("Exponent(%q) accepted", code)
		}
	}
}

func TestParseDecimal(t *testing.T) {
	tests := []struct {
		in   string
		exp  int
		want int64
		err  error
	}{
		{"-2400.00", 2, -240000, nil},
		{"19.40", 2, 1940, nil},
		{"-383,43", 2, -38343, nil},
		{"33000,00", 2, 3300000, nil},
		{"  8,14 ", 2, 814, nil},
		{"+10", 2, 1000, nil},
		{".5", 2, 50, nil},
		{"7,", 2, 700, nil},
		{"1.234,56", 2, 0, ErrSeparators},
		{"1,234.56", 2, 0, ErrSeparators},
		{"1.000,50", 2, 0, ErrSeparators},
		{"1.234.567", 2, 0, ErrSeparators},
		{"1,,5", 2, 0, ErrSeparators},
		{"1.000", 2, 0, ErrAmbiguous},
		{"1,000", 2, 0, ErrAmbiguous},
		{"-250.500", 2, 0, ErrAmbiguous},
		{"1.000", 0, 0, ErrAmbiguous},
		{"0.500", 2, 50, nil},
		{".500", 2, 50, nil},
		{"1234.500", 2, 123450, nil},
		{"1000,50", 2, 100050, nil},
		{"1,0", 2, 100, nil},
		{"1000", 2, 100000, nil},
		{"1.000", 3, 1000, nil},
		{"-29.9000", 2, -2990, nil},
		{"0", 2, 0, nil},
		{"-0.00", 2, 0, nil},
		{"1500", 0, 1500, nil},
		{"1.250", 3, 1250, nil},
		{"92233720368547758.07", 2, 9223372036854775807 - 0, ErrRange},
		{"9999999999999999.99", 2, 999999999999999999, nil},
		{"00000000000009999999999999999.99", 2, 999999999999999999, nil},
		{"10000000000000000.00", 2, 0, ErrRange},
		{"0.05", 2, 5, nil},
		{"000", 2, 0, nil},
		{"1234.567", 2, 0, ErrPrecision},
		{"0.001", 2, 0, ErrPrecision},
		{"", 2, 0, ErrSyntax},
		{"-", 2, 0, ErrSyntax},
		{"abc", 2, 0, ErrSyntax},
		{"1e5", 2, 0, ErrSyntax},
		{"1,2,3", 2, 0, ErrSeparators},
		{"12.34.56,7", 2, 0, ErrSeparators},
		{"1.23,45", 2, 0, ErrSeparators},
		{".", 2, 0, ErrSyntax},
		{"--1", 2, 0, ErrSyntax},
	}
	for _, tt := range tests {
		got, err := ParseDecimal(tt.in, tt.exp)
		if !errors.Is(err, tt.err) || (err == nil && got != tt.want) {
			t.Errorf("ParseDecimal(%q, %d) = %d, %v; want %d, %v", tt.in, tt.exp, got, err, tt.want, tt.err)
		}
	}
}

func TestFormatAndSum(t *testing.T) {
	for _, tt := range []struct {
		minor int64
		exp   int
		want  string
	}{{123456, 2, "1234.56"}, {-5, 2, "-0.05"}, {0, 2, "0.00"}, {7, 0, "7"}, {-1250, 3, "-1.250"}} {
		if got := Format(big.NewInt(tt.minor), tt.exp); got != tt.want {
			t.Errorf("Format(%d, %d) = %s, want %s", tt.minor, tt.exp, got, tt.want)
		}
	}
	var s Sum
	for range 3 {
		s.Add(9223372036854775807)
	}
	if got, want := s.Minor(), "27670116110564327421"; got != want {
		t.Errorf("sum = %s, want %s", got, want)
	}
	if _, ok := Checked(9223372036854775807, 1); ok {
		t.Error("Checked missed an overflow")
	}
}
